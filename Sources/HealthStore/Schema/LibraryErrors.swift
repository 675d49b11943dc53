import HealthCore
import PrivateFiles
import SQLite

// The general libraries' errors are user-facing failures too: their messages name the file,
// and they carry the sysexits code the command line exits with.
extension SQLiteError: SysexitsError {}
extension FileError: SysexitsError {}

import HealthCore
import Parquet

// A Parquet writer's misuse is a user-facing failure too (exit 70), like the store's errors.
extension ParquetError: SysexitsError {}

import HealthCore

/// `Me` characteristics in today's names. iOS 8–9 wrote enum numbers (`BiologicalSex="2"`)
/// and compact birth dates (`19881029`); later exports write `HKBiologicalSexMale` and
/// `1988-10-29`.
enum ProfileValues {
    static func normalized(_ profile: ExportProfile) -> ExportProfile {
        var c = profile.characteristics
        for (key, value) in c { c[key] = readable(key, value) }
        return ExportProfile(characteristics: c)
    }

    static func readable(_ key: String, _ value: String) -> String {
        let name = key.hasPrefix("HKCharacteristicTypeIdentifier") ? String(key.dropFirst(30)) : key
        switch name {
        case "DateOfBirth":
            if value.count == 8, value.allSatisfy(\.isNumber) {
                return "\(value.prefix(4))-\(value.dropFirst(4).prefix(2))-\(value.suffix(2))"
            }
            return value
        case "BiologicalSex":
            return enumName(value, ["HKBiologicalSexNotSet", "HKBiologicalSexFemale", "HKBiologicalSexMale",
                                    "HKBiologicalSexOther"])
        case "BloodType":
            return enumName(value, ["HKBloodTypeNotSet", "HKBloodTypeAPositive", "HKBloodTypeANegative",
                                    "HKBloodTypeBPositive", "HKBloodTypeBNegative", "HKBloodTypeABPositive",
                                    "HKBloodTypeABNegative", "HKBloodTypeOPositive", "HKBloodTypeONegative"])
        case "FitzpatrickSkinType":
            return enumName(value, ["HKFitzpatrickSkinTypeNotSet", "HKFitzpatrickSkinTypeI", "HKFitzpatrickSkinTypeII",
                                    "HKFitzpatrickSkinTypeIII", "HKFitzpatrickSkinTypeIV", "HKFitzpatrickSkinTypeV",
                                    "HKFitzpatrickSkinTypeVI"])
        default:
            return value
        }
    }

    private static func enumName(_ value: String, _ names: [String]) -> String {
        guard let index = Int(value), names.indices.contains(index) else { return value }
        return names[index]
    }
}

import HealthCore

/// Workouts, activity summaries and the rarer element kinds.
extension ExportSAXHandler {
    func parseWorkout(_ attributes: SAXAttributes, line: Int) -> ExportWorkout {
        let (source, dates) = sourceAndDates(attributes)
        var w = ExportWorkout(activityType: "", source: source, line: line)
        w.creationDate = dates.creation; w.startDate = dates.start; w.endDate = dates.end
        var numbers: [String: Double] = [:]
        var units: [String: String] = [:]
        for i in 0..<attributes.count {
            let name = attributes.name(i), value = attributes.value(i)
            if name.equals("workoutActivityType") { w.activityType = text.interned(value) }
            else if name.hasPrefix("total") || name.hasPrefix("duration") {
                let key = name.string
                if key.hasSuffix("Unit") { units[String(key.dropLast(4))] = text.interned(value) }
                else if let v = value.double { numbers[key] = v }
            }
        }
        func measurement(_ key: String) -> Measurement? { numbers[key].map { Measurement(value: $0, unit: units[key]) } }
        w.duration = measurement("duration")
        w.totalDistance = measurement("totalDistance")
        w.totalEnergyBurned = measurement("totalEnergyBurned")
        w.totalSwimmingStrokeCount = measurement("totalSwimmingStrokeCount")
        w.totalFlightsClimbed = measurement("totalFlightsClimbed")
        return w
    }

    func startWorkoutChild(_ name: ByteSpan, _ attributes: SAXAttributes, inActivity: Bool) -> Context {
        if name.equals("MetadataEntry") {
            let entry = metadataEntry(attributes)
            if inActivity { activity?.metadata.append(entry) } else { workout?.metadata.append(entry) }
            return .leaf
        }
        if name.equals("WorkoutEvent") {
            let event = workoutEvent(attributes)
            if inActivity { activity?.events.append(event) } else { workout?.events.append(event) }
            return inActivity ? .activityEvent : .workoutEvent
        }
        if name.equals("WorkoutStatistics") {
            let statistic = workoutStatistic(attributes)
            if inActivity { activity?.statistics.append(statistic) } else { workout?.statistics.append(statistic) }
            return .leaf
        }
        if name.equals("WorkoutRoute") && !inActivity {
            let (source, dates) = sourceAndDates(attributes)
            route = ExportWorkoutRoute(source: source, startDate: dates.start, endDate: dates.end)
            return .workoutRoute
        }
        if name.equals("WorkoutActivity") && !inActivity {
            var a = ExportWorkoutActivity()
            for i in 0..<attributes.count {
                let n = attributes.name(i), v = attributes.value(i)
                if n.equals("uuid") { a.uuid = text.plain(v) }
                else if n.equals("workoutActivityType") { a.activityType = text.interned(v) }
                else if n.equals("startDate") { a.startDate = DateParser.parse(v)?.timestamp }
                else if n.equals("endDate") { a.endDate = DateParser.parse(v)?.timestamp }
                else if n.equals("duration"), let d = v.double { a.duration = Measurement(value: d, unit: a.duration?.unit) }
                else if n.equals("durationUnit") {
                    a.duration = Measurement(value: a.duration?.value ?? .nan, unit: text.interned(v))
                }
            }
            if let d = a.duration, d.value.isNaN { a.duration = nil }
            activity = a
            return .workoutActivity
        }
        return unknown(name, in: inActivity ? "WorkoutActivity" : "Workout")
    }

    func startRouteChild(_ name: ByteSpan, _ attributes: SAXAttributes) -> Context {
        if name.equals("FileReference") {
            for i in 0..<attributes.count where attributes.name(i).equals("path") {
                route?.filePath = text.plain(attributes.value(i))
            }
            return .leaf
        }
        if name.equals("Location") {
            var values: [Double?] = Array(repeating: nil, count: 7)
            var time: Timestamp?
            for i in 0..<attributes.count {
                let n = attributes.name(i), v = attributes.value(i)
                if n.equals("date") { time = DateParser.parse(v)?.timestamp }
                else if let k = Self.locationKeys.firstIndex(where: { n.equals($0) }) { values[k] = v.double }
            }
            if let lat = values[0], let lon = values[1] {
                route?.points.append(RoutePoint(time: time, latitude: lat, longitude: lon, altitude: values[2],
                                                       horizontalAccuracy: values[3], verticalAccuracy: values[4],
                                                       course: values[5], speed: values[6]))
                nestedItems += 1
            }
            return .leaf
        }
        if name.equals("MetadataEntry") { route?.metadata.append(metadataEntry(attributes)); return .leaf }
        return unknown(name, in: "WorkoutRoute")
    }

    private static let locationKeys: [StaticString] =
        ["latitude", "longitude", "altitude", "horizontalAccuracy", "verticalAccuracy", "course", "speed"]

    private func workoutEvent(_ attributes: SAXAttributes) -> ExportWorkoutEvent {
        var event = ExportWorkoutEvent(type: "", date: nil, duration: nil)
        var duration: Double?
        var unit: String?
        for i in 0..<attributes.count {
            let n = attributes.name(i), v = attributes.value(i)
            if n.equals("type") { event.type = text.interned(v) }
            else if n.equals("date") { event.date = DateParser.parse(v)?.timestamp }
            else if n.equals("duration") { duration = v.double }
            else if n.equals("durationUnit") { unit = text.interned(v) }
        }
        event.duration = duration.map { Measurement(value: $0, unit: unit) }
        return event
    }

    private func workoutStatistic(_ attributes: SAXAttributes) -> ExportWorkoutStatistic {
        var s = ExportWorkoutStatistic(type: "")
        for i in 0..<attributes.count {
            let n = attributes.name(i), v = attributes.value(i)
            switch true {
            case n.equals("type"): s.type = text.interned(v)
            case n.equals("startDate"): s.startDate = DateParser.parse(v)?.timestamp
            case n.equals("endDate"): s.endDate = DateParser.parse(v)?.timestamp
            case n.equals("sum"): s.sum = v.double
            case n.equals("average"): s.average = v.double
            case n.equals("minimum"): s.minimum = v.double
            case n.equals("maximum"): s.maximum = v.double
            case n.equals("unit"): s.unit = text.interned(v)
            default: break
            }
        }
        return s
    }

    func activitySummary(_ attributes: SAXAttributes, line: Int) -> ExportActivitySummary {
        var a = ExportActivitySummary(line: line)
        for i in 0..<attributes.count {
            let n = attributes.name(i), v = attributes.value(i)
            switch true {
            case n.equals("dateComponents"): a.date = DateParser.civilDate(v)
            case n.equals("activeEnergyBurned"): a.activeEnergyBurned = v.double
            case n.equals("activeEnergyBurnedGoal"): a.activeEnergyBurnedGoal = v.double
            case n.equals("activeEnergyBurnedUnit"): a.activeEnergyBurnedUnit = text.interned(v)
            case n.equals("appleMoveTime"): a.appleMoveTime = v.double
            case n.equals("appleMoveTimeGoal"): a.appleMoveTimeGoal = v.double
            case n.equals("appleExerciseTime"): a.appleExerciseTime = v.double
            case n.equals("appleExerciseTimeGoal"): a.appleExerciseTimeGoal = v.double
            case n.equals("appleStandHours"): a.appleStandHours = v.double
            case n.equals("appleStandHoursGoal"): a.appleStandHoursGoal = v.double
            default: break
            }
        }
        return a
    }

    func clinicalRecord(_ attributes: SAXAttributes) -> ExportClinicalRecord {
        var c = ExportClinicalRecord(type: "")
        for i in 0..<attributes.count {
            let n = attributes.name(i), v = attributes.value(i)
            switch true {
            case n.equals("type"): c.type = text.interned(v)
            case n.equals("identifier"): c.identifier = text.plain(v)
            case n.equals("sourceName"): c.sourceName = text.interned(v)
            case n.equals("sourceURL"): c.sourceURL = text.plain(v)
            case n.equals("fhirVersion"): c.fhirVersion = text.interned(v)
            case n.equals("receivedDate"): c.receivedDate = DateParser.parse(v)?.timestamp
            case n.equals("resourceFilePath"): c.resourceFilePath = text.plain(v)
            default: break
            }
        }
        return c
    }

    func sensitivityPoint(_ attributes: SAXAttributes) -> SensitivityPoint {
        var point = SensitivityPoint(frequencyHz: nil, leftEarDBHL: nil, rightEarDBHL: nil,
                                     attributes: allAttributes(attributes))
        for i in 0..<attributes.count {
            let n = attributes.name(i), v = attributes.value(i)
            if n.equals("frequencyValue") { point.frequencyHz = v.double }
            else if n.equals("leftEarValue") { point.leftEarDBHL = v.double }
            else if n.equals("rightEarValue") { point.rightEarDBHL = v.double }
        }
        return point
    }

    func visionPrescription(_ attributes: SAXAttributes) -> ExportVisionPrescription {
        var v = ExportVisionPrescription()
        for i in 0..<attributes.count {
            let n = attributes.name(i), value = attributes.value(i)
            if n.equals("type") { v.type = text.interned(value) }
            else if n.equals("dateIssued") { v.dateIssued = DateParser.parse(value)?.timestamp }
            else if n.equals("expirationDate") { v.expirationDate = DateParser.parse(value)?.timestamp }
            else if n.equals("brand") { v.brand = text.plain(value) }
        }
        return v
    }
}

extension ExportXML {
    /// One small export holding every element kind of docs/FORMAT.md (and one unknown element).
    package static let everyElementKind = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE HealthData [
    <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary)*)>
    <!ATTLIST HealthData locale CDATA #REQUIRED>
    ]>
    <HealthData locale="en_US">
     <ExportDate value="2024-03-01 10:00:00 +0100"/>
     <Me HKCharacteristicTypeIdentifierDateOfBirth="1980-05-17" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeONegative" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeIII" HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse="None"/>
     <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="Anna’s Apple Watch" sourceVersion="10.3" device="&lt;&lt;HKDevice: 0x2834a1b00&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,1, software:10.3&gt;" unit="ms" creationDate="2024-02-29 23:05:00 +0100" startDate="2024-02-29 23:58:58 +0100" endDate="2024-03-01 00:00:01 +0100" value="41.5">
      <MetadataEntry key="HKAlgorithmVersion" value="1"/>
      <HeartRateVariabilityMetadataList>
       <InstantaneousBeatsPerMinute bpm="63" time="11:58:59.25 PM"/>
       <InstantaneousBeatsPerMinute bpm="64" time="12:00:00.50 AM"/>
      </HeartRateVariabilityMetadataList>
     </Record>
     <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Health" unit="mmHg" creationDate="2024-02-10 12:52:42 +0100" startDate="2024-02-10 11:30:00 +0100" endDate="2024-02-10 11:30:00 +0100" value="121"/>
     <Record type="HKQuantityTypeIdentifierBloodPressureDiastolic" sourceName="Health" unit="mmHg" creationDate="2024-02-10 12:52:42 +0100" startDate="2024-02-10 11:30:00 +0100" endDate="2024-02-10 11:30:00 +0100" value="79"/>
     <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Health" creationDate="2024-02-10 12:52:42 +0100" startDate="2024-02-10 11:30:00 +0100" endDate="2024-02-10 11:30:00 +0100">
      <MetadataEntry key="HKWasUserEntered" value="1"/>
      <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Health" unit="mmHg" creationDate="2024-02-10 12:52:42 +0100" startDate="2024-02-10 11:30:00 +0100" endDate="2024-02-10 11:30:00 +0100" value="121"/>
      <Record type="HKQuantityTypeIdentifierBloodPressureDiastolic" sourceName="Health" unit="mmHg" creationDate="2024-02-10 12:52:42 +0100" startDate="2024-02-10 11:30:00 +0100" endDate="2024-02-10 11:30:00 +0100" value="79"/>
     </Correlation>
     <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30.5" durationUnit="min" totalDistance="3.1" totalDistanceUnit="mi" totalEnergyBurned="1200" totalEnergyBurnedUnit="kJ" sourceName="Apple Watch" creationDate="2024-02-20 07:40:00 +0100" startDate="2024-02-20 07:00:00 +0100" endDate="2024-02-20 07:30:30 +0100">
      <MetadataEntry key="HKIndoorWorkout" value="0"/>
      <WorkoutEvent type="HKWorkoutEventTypePause" date="2024-02-20 07:10:00 +0100"/>
      <WorkoutEvent type="HKWorkoutEventTypeResume" date="2024-02-20 07:11:00 +0100"/>
      <WorkoutActivity uuid="0C822588-0470-4F37-9676-C324BF454FBE" startDate="2024-02-20 07:00:00 +0100" endDate="2024-02-20 07:30:30 +0100" duration="30.5" durationUnit="min">
       <WorkoutEvent type="HKWorkoutEventTypeSegment" date="2024-02-20 07:00:00 +0100" duration="10" durationUnit="min"/>
       <WorkoutStatistics type="HKQuantityTypeIdentifierStepCount" startDate="2024-02-20 07:00:00 +0100" endDate="2024-02-20 07:30:30 +0100" sum="4100" unit="count"/>
      </WorkoutActivity>
      <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceWalkingRunning" startDate="2024-02-20 07:00:00 +0100" endDate="2024-02-20 07:30:30 +0100" sum="5.1" unit="km"/>
      <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" startDate="2024-02-20 07:00:00 +0100" endDate="2024-02-20 07:30:30 +0100" average="151" minimum="98" maximum="171" unit="count/min"/>
      <WorkoutRoute sourceName="Apple Watch" creationDate="2024-02-20 07:41:00 +0100" startDate="2024-02-20 07:00:00 +0100" endDate="2024-02-20 07:30:30 +0100">
       <FileReference path="/workout-routes/route_2024-02-20_7.00am.gpx"/>
      </WorkoutRoute>
      <WorkoutRoute sourceName="iPhone" startDate="2024-02-20 07:00:00 +0100" endDate="2024-02-20 07:30:30 +0100">
       <Location date="2024-02-20 07:00:01 +0100" latitude="52.52" longitude="13.405" altitude="34.5" horizontalAccuracy="3.1" verticalAccuracy="2.2" course="91" speed="2.9"/>
       <Location date="2024-02-20 07:00:02 +0100" latitude="52.5201" longitude="13.4051" altitude="34.6" horizontalAccuracy="3" verticalAccuracy="2" course="92" speed="3.0"/>
      </WorkoutRoute>
     </Workout>
     <ActivitySummary dateComponents="2024-02-20" activeEnergyBurned="612.5" activeEnergyBurnedGoal="600" activeEnergyBurnedUnit="kcal" appleMoveTime="0" appleMoveTimeGoal="0" appleExerciseTime="41" appleExerciseTimeGoal="30" appleStandHours="11" appleStandHoursGoal="12"/>
     <ClinicalRecord type="HKClinicalTypeIdentifierLabResultRecord" identifier="abc-1" sourceName="Clinic" sourceURL="https://fhir.example/Observation/1" fhirVersion="4.0.1" receivedDate="2024-01-05 09:00:00 +0100" resourceFilePath="/clinical-records/abc-1.json"/>
     <Audiogram sourceName="Mimi" startDate="2024-01-06 10:00:00 +0100" endDate="2024-01-06 10:10:00 +0100">
      <SensitivityPoint frequencyValue="1000" frequencyUnit="Hz" leftEarValue="15" leftEarUnit="dBHL" rightEarValue="20" rightEarUnit="dBHL"/>
      <SensitivityPoint frequencyValue="4000" frequencyUnit="Hz" leftEarValue="25" leftEarUnit="dBHL" rightEarValue="30" rightEarUnit="dBHL"/>
     </Audiogram>
     <VisionPrescription type="HKVisionPrescriptionTypeGlasses" dateIssued="2023-11-01 00:00:00 +0100" expirationDate="2025-11-01 00:00:00 +0100" brand="Zeiss">
      <RightEye sphere="-1.25" cylinder="-0.5" axis="90"/>
      <LeftEye sphere="-1.5"/>
     </VisionPrescription>
     <FutureElement foo="bar"><Child/></FutureElement>
    </HealthData>
    """
}

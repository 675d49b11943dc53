-- Health Connect's own SQLite schema, as Android creates it on a fresh install.
--
-- Source:   AOSP module platform/packages/modules/HealthFitness, read from the public mirror
--           github.com/msft-mirror-aosp/platform.packages.modules.HealthFitness
--           at commit c0d64b5a3b88c614e25394499610c39d8926f69d (branch android16-release, 2025-04-12).
-- Version:  PRAGMA user_version = 14. HealthConnectDatabase passes AconfigFlagHelper.getDbVersion()
--           to SQLiteOpenHelper; that is DatabaseVersions.LAST_ROLLED_OUT_DB_VERSION
--           (= DB_VERSION_MINDFULNESS_SESSION = 14) unless the staged DB flags for versions 15-18
--           (medical records, activity intensity, ecosystem metrics, cloud backup) are on.
-- How:      HealthConnectDatabase.onCreate -> DatabaseUpgradeHelper.onUpgrade(db, 0, 14):
--           first the "initial" tables (every record type < RECORD_TYPE_SKIN_TEMPERATURE plus the
--           non-record helpers, generated local-time columns included), then the upgrades for
--           versions 11, 12 and 14 in order. Each statement below is what the Java request
--           builders (storage/request/CreateTableRequest.java, AlterTableRequest.java) emit,
--           reconstructed from the helpers named per table. Written by hand from those facts;
--           no code copied.
-- Checked:  the version-9 tables match, column for column, the real database file the module
--           ships for its tests (tests/integrationtests/res/raw/healthconnect_staged.db).
--
-- Conventions the reader needs (details in docs/HEALTH_CONNECT.md):
--   * times are epoch milliseconds UTC; *_zone_offset are SECONDS east of UTC;
--   * local_date is an INTEGER epoch day (days since 1970-01-01) of the start/time in its own
--     offset, written by the app-facing code, not generated;
--   * local_date_time* are VIRTUAL generated columns: epoch ms shifted by the offset
--     ("local wall clock read as if it were UTC"); they are not stored in the file;
--   * series and session children have no primary key; they point at the parent's row_id
--     through parent_key (planned-exercise children use their own *_parent_id names);
--   * the four series main tables are CamelCase (SpeedRecordTable, PowerRecordTable,
--     StepsCadenceRecordTable, CyclingPedalingCadenceRecordTable) while their sample tables are
--     snake_case (speed_record_table ...): speed_record_table holds samples, not records.
--
-- Not here: tables that only exist at versions 15-18 (medical_resource_*, medical_data_source_*,
-- activity_intensity_record_table, read_access_logs_table, backup change tokens) and the
-- development-only settings table.

-- Android's SQLiteDatabase (not the module) adds this table to every database it opens.
CREATE TABLE android_metadata (locale TEXT);

-- ===== Part 1: the initial set (DatabaseUpgradeHelper.createTablesForMinSupportedVersion):
-- every record type below RECORD_TYPE_SKIN_TEMPERATURE (39), created with the generated
-- local-time columns inline, then the non-record helpers. =====

-- steps_record_table: record type 1; service/java/com/android/server/healthconnect/storage/datatypehelpers/StepsRecordHelper.java (columns from RecordHelper, IntervalRecordHelper)
CREATE TABLE IF NOT EXISTS steps_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER, count INTEGER, local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset), local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_steps_record_table_0 ON steps_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_steps_record_table_1 ON steps_record_table(app_info_id);

-- active_calories_burned_record_table: record type 2; service/java/com/android/server/healthconnect/storage/datatypehelpers/ActiveCaloriesBurnedRecordHelper.java (columns from RecordHelper, IntervalRecordHelper)
CREATE TABLE IF NOT EXISTS active_calories_burned_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER, energy REAL, local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset), local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_active_calories_burned_record_table_0 ON active_calories_burned_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_active_calories_burned_record_table_1 ON active_calories_burned_record_table(app_info_id);

-- hydration_record_table: record type 3; service/java/com/android/server/healthconnect/storage/datatypehelpers/HydrationRecordHelper.java (columns from RecordHelper, IntervalRecordHelper)
CREATE TABLE IF NOT EXISTS hydration_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER, volume REAL, local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset), local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_hydration_record_table_0 ON hydration_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_hydration_record_table_1 ON hydration_record_table(app_info_id);

-- elevation_gained_record_table: record type 4; service/java/com/android/server/healthconnect/storage/datatypehelpers/ElevationGainedRecordHelper.java (columns from RecordHelper, IntervalRecordHelper)
CREATE TABLE IF NOT EXISTS elevation_gained_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER, elevation REAL, local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset), local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_elevation_gained_record_table_0 ON elevation_gained_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_elevation_gained_record_table_1 ON elevation_gained_record_table(app_info_id);

-- floors_climbed_record_table: record type 5; service/java/com/android/server/healthconnect/storage/datatypehelpers/FloorsClimbedRecordHelper.java (columns from RecordHelper, IntervalRecordHelper)
CREATE TABLE IF NOT EXISTS floors_climbed_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER, floors REAL, local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset), local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_floors_climbed_record_table_0 ON floors_climbed_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_floors_climbed_record_table_1 ON floors_climbed_record_table(app_info_id);

-- wheelchair_pushes_record_table: record type 6; service/java/com/android/server/healthconnect/storage/datatypehelpers/WheelchairPushesRecordHelper.java (columns from RecordHelper, IntervalRecordHelper)
CREATE TABLE IF NOT EXISTS wheelchair_pushes_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER, count INTEGER, local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset), local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_wheelchair_pushes_record_table_0 ON wheelchair_pushes_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_wheelchair_pushes_record_table_1 ON wheelchair_pushes_record_table(app_info_id);

-- distance_record_table: record type 7; service/java/com/android/server/healthconnect/storage/datatypehelpers/DistanceRecordHelper.java (columns from RecordHelper, IntervalRecordHelper)
CREATE TABLE IF NOT EXISTS distance_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER, distance REAL, local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset), local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_distance_record_table_0 ON distance_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_distance_record_table_1 ON distance_record_table(app_info_id);

-- nutrition_record_table: record type 8; service/java/com/android/server/healthconnect/storage/datatypehelpers/NutritionRecordHelper.java (columns from RecordHelper, IntervalRecordHelper)
CREATE TABLE IF NOT EXISTS nutrition_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER, unsaturated_fat REAL, potassium REAL, thiamin REAL, meal_type INTEGER, trans_fat REAL, manganese REAL, energy_from_fat REAL, caffeine REAL, dietary_fiber REAL, selenium REAL, vitamin_b6 REAL, protein REAL, chloride REAL, cholesterol REAL, copper REAL, iodine REAL, vitamin_b12 REAL, zinc REAL, riboflavin REAL, energy REAL, molybdenum REAL, phosphorus REAL, chromium REAL, total_fat REAL, calcium REAL, vitamin_c REAL, vitamin_e REAL, biotin REAL, vitamin_d REAL, niacin REAL, magnesium REAL, total_carbohydrate REAL, vitamin_k REAL, polyunsaturated_fat REAL, saturated_fat REAL, sodium REAL, folate REAL, monounsaturated_fat REAL, pantothenic_acid REAL, meal_name TEXT, iron REAL, vitamin_a REAL, folic_acid REAL, sugar REAL, local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset), local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_nutrition_record_table_0 ON nutrition_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_nutrition_record_table_1 ON nutrition_record_table(app_info_id);

-- total_calories_burned_record_table: record type 9; service/java/com/android/server/healthconnect/storage/datatypehelpers/TotalCaloriesBurnedRecordHelper.java (columns from RecordHelper, IntervalRecordHelper)
CREATE TABLE IF NOT EXISTS total_calories_burned_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER, energy REAL, local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset), local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_total_calories_burned_record_table_0 ON total_calories_burned_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_total_calories_burned_record_table_1 ON total_calories_burned_record_table(app_info_id);

-- menstruation_period_record_table: record type 10; service/java/com/android/server/healthconnect/storage/datatypehelpers/MenstruationPeriodRecordHelper.java (columns from RecordHelper, IntervalRecordHelper)
CREATE TABLE IF NOT EXISTS menstruation_period_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER, local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset), local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_menstruation_period_record_table_0 ON menstruation_period_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_menstruation_period_record_table_1 ON menstruation_period_record_table(app_info_id);

-- heart_rate_record_table: record type 11; service/java/com/android/server/healthconnect/storage/datatypehelpers/HeartRateRecordHelper.java (columns from RecordHelper, SeriesRecordHelper -> IntervalRecordHelper)
CREATE TABLE IF NOT EXISTS heart_rate_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER, local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset), local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_heart_rate_record_table_0 ON heart_rate_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_heart_rate_record_table_1 ON heart_rate_record_table(app_info_id);
-- heart_rate_record_series_table: child of heart_rate_record_table; service/java/com/android/server/healthconnect/storage/datatypehelpers/SeriesRecordHelper.java
CREATE TABLE IF NOT EXISTS heart_rate_record_series_table (parent_key INTEGER, beats_per_minute INTEGER, epoch_millis INTEGER,  FOREIGN KEY (parent_key) REFERENCES heart_rate_record_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_heart_rate_record_series_table_0 ON heart_rate_record_series_table(parent_key);

-- CyclingPedalingCadenceRecordTable: record type 12; service/java/com/android/server/healthconnect/storage/datatypehelpers/CyclingPedalingCadenceRecordHelper.java (columns from RecordHelper, SeriesRecordHelper -> IntervalRecordHelper)
CREATE TABLE IF NOT EXISTS CyclingPedalingCadenceRecordTable (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER, local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset), local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_CyclingPedalingCadenceRecordTable_0 ON CyclingPedalingCadenceRecordTable(device_info_id);
CREATE INDEX IF NOT EXISTS idx_CyclingPedalingCadenceRecordTable_1 ON CyclingPedalingCadenceRecordTable(app_info_id);
-- cycling_pedaling_cadence_record_table: child of CyclingPedalingCadenceRecordTable; service/java/com/android/server/healthconnect/storage/datatypehelpers/SeriesRecordHelper.java
CREATE TABLE IF NOT EXISTS cycling_pedaling_cadence_record_table (parent_key INTEGER, epoch_millis INTEGER, revolutions_per_minute REAL,  FOREIGN KEY (parent_key) REFERENCES CyclingPedalingCadenceRecordTable(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_cycling_pedaling_cadence_record_table_0 ON cycling_pedaling_cadence_record_table(parent_key);

-- PowerRecordTable: record type 13; service/java/com/android/server/healthconnect/storage/datatypehelpers/PowerRecordHelper.java (columns from RecordHelper, SeriesRecordHelper -> IntervalRecordHelper)
CREATE TABLE IF NOT EXISTS PowerRecordTable (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER, local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset), local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_PowerRecordTable_0 ON PowerRecordTable(device_info_id);
CREATE INDEX IF NOT EXISTS idx_PowerRecordTable_1 ON PowerRecordTable(app_info_id);
-- power_record_table: child of PowerRecordTable; service/java/com/android/server/healthconnect/storage/datatypehelpers/SeriesRecordHelper.java
CREATE TABLE IF NOT EXISTS power_record_table (parent_key INTEGER, power REAL, epoch_millis INTEGER,  FOREIGN KEY (parent_key) REFERENCES PowerRecordTable(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_power_record_table_0 ON power_record_table(parent_key);

-- SpeedRecordTable: record type 14; service/java/com/android/server/healthconnect/storage/datatypehelpers/SpeedRecordHelper.java (columns from RecordHelper, SeriesRecordHelper -> IntervalRecordHelper)
CREATE TABLE IF NOT EXISTS SpeedRecordTable (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER, local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset), local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_SpeedRecordTable_0 ON SpeedRecordTable(device_info_id);
CREATE INDEX IF NOT EXISTS idx_SpeedRecordTable_1 ON SpeedRecordTable(app_info_id);
-- speed_record_table: child of SpeedRecordTable; service/java/com/android/server/healthconnect/storage/datatypehelpers/SeriesRecordHelper.java
CREATE TABLE IF NOT EXISTS speed_record_table (parent_key INTEGER, speed REAL, epoch_millis INTEGER,  FOREIGN KEY (parent_key) REFERENCES SpeedRecordTable(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_speed_record_table_0 ON speed_record_table(parent_key);

-- StepsCadenceRecordTable: record type 15; service/java/com/android/server/healthconnect/storage/datatypehelpers/StepsCadenceRecordHelper.java (columns from RecordHelper, SeriesRecordHelper -> IntervalRecordHelper)
CREATE TABLE IF NOT EXISTS StepsCadenceRecordTable (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER, local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset), local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_StepsCadenceRecordTable_0 ON StepsCadenceRecordTable(device_info_id);
CREATE INDEX IF NOT EXISTS idx_StepsCadenceRecordTable_1 ON StepsCadenceRecordTable(app_info_id);
-- steps_cadence_record_table: child of StepsCadenceRecordTable; service/java/com/android/server/healthconnect/storage/datatypehelpers/SeriesRecordHelper.java
CREATE TABLE IF NOT EXISTS steps_cadence_record_table (parent_key INTEGER, rate REAL, epoch_millis INTEGER,  FOREIGN KEY (parent_key) REFERENCES StepsCadenceRecordTable(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_steps_cadence_record_table_0 ON steps_cadence_record_table(parent_key);

-- basal_metabolic_rate_record_table: record type 16; service/java/com/android/server/healthconnect/storage/datatypehelpers/BasalMetabolicRateRecordHelper.java (columns from RecordHelper, InstantRecordHelper)
CREATE TABLE IF NOT EXISTS basal_metabolic_rate_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, time INTEGER, zone_offset INTEGER, local_date INTEGER, basal_metabolic_rate REAL, local_date_time INTEGER AS (time + 1000 * zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_basal_metabolic_rate_record_table_0 ON basal_metabolic_rate_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_basal_metabolic_rate_record_table_1 ON basal_metabolic_rate_record_table(app_info_id);

-- body_fat_record_table: record type 17; service/java/com/android/server/healthconnect/storage/datatypehelpers/BodyFatRecordHelper.java (columns from RecordHelper, InstantRecordHelper)
CREATE TABLE IF NOT EXISTS body_fat_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, time INTEGER, zone_offset INTEGER, local_date INTEGER, percentage REAL, local_date_time INTEGER AS (time + 1000 * zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_body_fat_record_table_0 ON body_fat_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_body_fat_record_table_1 ON body_fat_record_table(app_info_id);

-- vo2_max_record_table: record type 18; service/java/com/android/server/healthconnect/storage/datatypehelpers/Vo2MaxRecordHelper.java (columns from RecordHelper, InstantRecordHelper)
CREATE TABLE IF NOT EXISTS vo2_max_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, time INTEGER, zone_offset INTEGER, local_date INTEGER, measurement_method INTEGER, vo2_milliliters_per_minute_kilogram REAL, local_date_time INTEGER AS (time + 1000 * zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_vo2_max_record_table_0 ON vo2_max_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_vo2_max_record_table_1 ON vo2_max_record_table(app_info_id);

-- cervical_mucus_record_table: record type 19; service/java/com/android/server/healthconnect/storage/datatypehelpers/CervicalMucusRecordHelper.java (columns from RecordHelper, InstantRecordHelper)
CREATE TABLE IF NOT EXISTS cervical_mucus_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, time INTEGER, zone_offset INTEGER, local_date INTEGER, sensation INTEGER, appearance INTEGER, local_date_time INTEGER AS (time + 1000 * zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_cervical_mucus_record_table_0 ON cervical_mucus_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_cervical_mucus_record_table_1 ON cervical_mucus_record_table(app_info_id);

-- basal_body_temperature_record_table: record type 20; service/java/com/android/server/healthconnect/storage/datatypehelpers/BasalBodyTemperatureRecordHelper.java (columns from RecordHelper, InstantRecordHelper)
CREATE TABLE IF NOT EXISTS basal_body_temperature_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, time INTEGER, zone_offset INTEGER, local_date INTEGER, measurement_location INTEGER, temperature REAL, local_date_time INTEGER AS (time + 1000 * zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_basal_body_temperature_record_table_0 ON basal_body_temperature_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_basal_body_temperature_record_table_1 ON basal_body_temperature_record_table(app_info_id);

-- menstruation_flow_record_table: record type 21; service/java/com/android/server/healthconnect/storage/datatypehelpers/MenstruationFlowRecordHelper.java (columns from RecordHelper, InstantRecordHelper)
CREATE TABLE IF NOT EXISTS menstruation_flow_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, time INTEGER, zone_offset INTEGER, local_date INTEGER, flow INTEGER, local_date_time INTEGER AS (time + 1000 * zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_menstruation_flow_record_table_0 ON menstruation_flow_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_menstruation_flow_record_table_1 ON menstruation_flow_record_table(app_info_id);

-- oxygen_saturation_record_table: record type 22; service/java/com/android/server/healthconnect/storage/datatypehelpers/OxygenSaturationRecordHelper.java (columns from RecordHelper, InstantRecordHelper)
CREATE TABLE IF NOT EXISTS oxygen_saturation_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, time INTEGER, zone_offset INTEGER, local_date INTEGER, percentage REAL, local_date_time INTEGER AS (time + 1000 * zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_oxygen_saturation_record_table_0 ON oxygen_saturation_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_oxygen_saturation_record_table_1 ON oxygen_saturation_record_table(app_info_id);

-- blood_pressure_record_table: record type 23; service/java/com/android/server/healthconnect/storage/datatypehelpers/BloodPressureRecordHelper.java (columns from RecordHelper, InstantRecordHelper)
CREATE TABLE IF NOT EXISTS blood_pressure_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, time INTEGER, zone_offset INTEGER, local_date INTEGER, measurement_location TEXT NOT NULL, systolic REAL, diastolic REAL, body_position TEXT NOT NULL, local_date_time INTEGER AS (time + 1000 * zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_blood_pressure_record_table_0 ON blood_pressure_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_blood_pressure_record_table_1 ON blood_pressure_record_table(app_info_id);

-- height_record_table: record type 24; service/java/com/android/server/healthconnect/storage/datatypehelpers/HeightRecordHelper.java (columns from RecordHelper, InstantRecordHelper)
CREATE TABLE IF NOT EXISTS height_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, time INTEGER, zone_offset INTEGER, local_date INTEGER, height REAL, local_date_time INTEGER AS (time + 1000 * zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_height_record_table_0 ON height_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_height_record_table_1 ON height_record_table(app_info_id);

-- blood_glucose_record_table: record type 25; service/java/com/android/server/healthconnect/storage/datatypehelpers/BloodGlucoseRecordHelper.java (columns from RecordHelper, InstantRecordHelper)
CREATE TABLE IF NOT EXISTS blood_glucose_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, time INTEGER, zone_offset INTEGER, local_date INTEGER, specimen_source TEXT NOT NULL, level REAL, relation_to_meal TEXT NOT NULL, meal_type TEXT NOT NULL, local_date_time INTEGER AS (time + 1000 * zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_blood_glucose_record_table_0 ON blood_glucose_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_blood_glucose_record_table_1 ON blood_glucose_record_table(app_info_id);

-- weight_record_table: record type 26; service/java/com/android/server/healthconnect/storage/datatypehelpers/WeightRecordHelper.java (columns from RecordHelper, InstantRecordHelper)
CREATE TABLE IF NOT EXISTS weight_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, time INTEGER, zone_offset INTEGER, local_date INTEGER, weight REAL, local_date_time INTEGER AS (time + 1000 * zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_weight_record_table_0 ON weight_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_weight_record_table_1 ON weight_record_table(app_info_id);

-- lean_body_mass_record_table: record type 27; service/java/com/android/server/healthconnect/storage/datatypehelpers/LeanBodyMassRecordHelper.java (columns from RecordHelper, InstantRecordHelper)
CREATE TABLE IF NOT EXISTS lean_body_mass_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, time INTEGER, zone_offset INTEGER, local_date INTEGER, mass REAL, local_date_time INTEGER AS (time + 1000 * zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_lean_body_mass_record_table_0 ON lean_body_mass_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_lean_body_mass_record_table_1 ON lean_body_mass_record_table(app_info_id);

-- sexual_activity_record_table: record type 28; service/java/com/android/server/healthconnect/storage/datatypehelpers/SexualActivityRecordHelper.java (columns from RecordHelper, InstantRecordHelper)
CREATE TABLE IF NOT EXISTS sexual_activity_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, time INTEGER, zone_offset INTEGER, local_date INTEGER, protection_used INTEGER, local_date_time INTEGER AS (time + 1000 * zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_sexual_activity_record_table_0 ON sexual_activity_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_sexual_activity_record_table_1 ON sexual_activity_record_table(app_info_id);

-- body_temperature_record_table: record type 29; service/java/com/android/server/healthconnect/storage/datatypehelpers/BodyTemperatureRecordHelper.java (columns from RecordHelper, InstantRecordHelper)
CREATE TABLE IF NOT EXISTS body_temperature_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, time INTEGER, zone_offset INTEGER, local_date INTEGER, measurement_location INTEGER, temperature REAL, local_date_time INTEGER AS (time + 1000 * zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_body_temperature_record_table_0 ON body_temperature_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_body_temperature_record_table_1 ON body_temperature_record_table(app_info_id);

-- ovulation_test_record_table: record type 30; service/java/com/android/server/healthconnect/storage/datatypehelpers/OvulationTestRecordHelper.java (columns from RecordHelper, InstantRecordHelper)
CREATE TABLE IF NOT EXISTS ovulation_test_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, time INTEGER, zone_offset INTEGER, local_date INTEGER, result INTEGER, local_date_time INTEGER AS (time + 1000 * zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_ovulation_test_record_table_0 ON ovulation_test_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_ovulation_test_record_table_1 ON ovulation_test_record_table(app_info_id);

-- respiratory_rate_record_table: record type 31; service/java/com/android/server/healthconnect/storage/datatypehelpers/RespiratoryRateRecordHelper.java (columns from RecordHelper, InstantRecordHelper)
CREATE TABLE IF NOT EXISTS respiratory_rate_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, time INTEGER, zone_offset INTEGER, local_date INTEGER, rate REAL, local_date_time INTEGER AS (time + 1000 * zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_respiratory_rate_record_table_0 ON respiratory_rate_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_respiratory_rate_record_table_1 ON respiratory_rate_record_table(app_info_id);

-- bone_mass_record_table: record type 32; service/java/com/android/server/healthconnect/storage/datatypehelpers/BoneMassRecordHelper.java (columns from RecordHelper, InstantRecordHelper)
CREATE TABLE IF NOT EXISTS bone_mass_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, time INTEGER, zone_offset INTEGER, local_date INTEGER, mass REAL, local_date_time INTEGER AS (time + 1000 * zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_bone_mass_record_table_0 ON bone_mass_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_bone_mass_record_table_1 ON bone_mass_record_table(app_info_id);

-- resting_heart_rate_record_table: record type 33; service/java/com/android/server/healthconnect/storage/datatypehelpers/RestingHeartRateRecordHelper.java (columns from RecordHelper, InstantRecordHelper)
CREATE TABLE IF NOT EXISTS resting_heart_rate_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, time INTEGER, zone_offset INTEGER, local_date INTEGER, beats_per_minute INTEGER, local_date_time INTEGER AS (time + 1000 * zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_resting_heart_rate_record_table_0 ON resting_heart_rate_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_resting_heart_rate_record_table_1 ON resting_heart_rate_record_table(app_info_id);

-- body_water_mass_record_table: record type 34; service/java/com/android/server/healthconnect/storage/datatypehelpers/BodyWaterMassRecordHelper.java (columns from RecordHelper, InstantRecordHelper)
CREATE TABLE IF NOT EXISTS body_water_mass_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, time INTEGER, zone_offset INTEGER, local_date INTEGER, body_water_mass REAL NOT NULL, local_date_time INTEGER AS (time + 1000 * zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_body_water_mass_record_table_0 ON body_water_mass_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_body_water_mass_record_table_1 ON body_water_mass_record_table(app_info_id);

-- heart_rate_variability_rmssd_record_table: record type 35; service/java/com/android/server/healthconnect/storage/datatypehelpers/HeartRateVariabilityRmssdHelper.java (columns from RecordHelper, InstantRecordHelper)
CREATE TABLE IF NOT EXISTS heart_rate_variability_rmssd_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, time INTEGER, zone_offset INTEGER, local_date INTEGER, heart_rate_variability_millis REAL NOT NULL, local_date_time INTEGER AS (time + 1000 * zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_heart_rate_variability_rmssd_record_table_0 ON heart_rate_variability_rmssd_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_heart_rate_variability_rmssd_record_table_1 ON heart_rate_variability_rmssd_record_table(app_info_id);

-- intermenstrual_bleeding_record_table: record type 36; service/java/com/android/server/healthconnect/storage/datatypehelpers/IntermenstrualBleedingRecordHelper.java (columns from RecordHelper, InstantRecordHelper)
CREATE TABLE IF NOT EXISTS intermenstrual_bleeding_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, time INTEGER, zone_offset INTEGER, local_date INTEGER, local_date_time INTEGER AS (time + 1000 * zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_intermenstrual_bleeding_record_table_0 ON intermenstrual_bleeding_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_intermenstrual_bleeding_record_table_1 ON intermenstrual_bleeding_record_table(app_info_id);

-- exercise_session_record_table: record type 37; service/java/com/android/server/healthconnect/storage/datatypehelpers/ExerciseSessionRecordHelper.java (columns from RecordHelper, IntervalRecordHelper)
CREATE TABLE IF NOT EXISTS exercise_session_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER, notes TEXT, exercise_type INTEGER, title TEXT, has_route INTEGER, local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset), local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_exercise_session_record_table_0 ON exercise_session_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_exercise_session_record_table_1 ON exercise_session_record_table(app_info_id);
-- exercise_route_table: child of exercise_session_record_table; service/java/com/android/server/healthconnect/storage/datatypehelpers/ExerciseRouteRecordHelper.java
CREATE TABLE IF NOT EXISTS exercise_route_table (parent_key INTEGER NOT NULL, timestamp_millis INTEGER NOT NULL, longitude REAL NOT NULL, latitude REAL NOT NULL, horizontal_accuracy REAL NOT NULL, vertical_accuracy REAL NOT NULL, altitude REAL NOT NULL,  FOREIGN KEY (parent_key) REFERENCES exercise_session_record_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_exercise_route_table_0 ON exercise_route_table(parent_key);
-- exercise_laps_table: child of exercise_session_record_table; service/java/com/android/server/healthconnect/storage/datatypehelpers/ExerciseLapRecordHelper.java
CREATE TABLE IF NOT EXISTS exercise_laps_table (parent_key INTEGER NOT NULL, lap_start_time INTEGER NOT NULL, lap_end_time INTEGER NOT NULL, lap_length REAL NOT NULL,  FOREIGN KEY (parent_key) REFERENCES exercise_session_record_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_exercise_laps_table_0 ON exercise_laps_table(parent_key);
-- exercise_segments_table: child of exercise_session_record_table; service/java/com/android/server/healthconnect/storage/datatypehelpers/ExerciseSegmentRecordHelper.java
CREATE TABLE IF NOT EXISTS exercise_segments_table (parent_key INTEGER NOT NULL, segment_start_time INTEGER NOT NULL, segment_end_time INTEGER NOT NULL, segment_type INTEGER NOT NULL, repetitions_count INTEGER NOT NULL,  FOREIGN KEY (parent_key) REFERENCES exercise_session_record_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_exercise_segments_table_0 ON exercise_segments_table(parent_key);

-- sleep_session_record_table: record type 38; service/java/com/android/server/healthconnect/storage/datatypehelpers/SleepSessionRecordHelper.java (columns from RecordHelper, IntervalRecordHelper)
CREATE TABLE IF NOT EXISTS sleep_session_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER, notes TEXT, title TEXT, local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset), local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_sleep_session_record_table_0 ON sleep_session_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_sleep_session_record_table_1 ON sleep_session_record_table(app_info_id);
-- sleep_stages_table: child of sleep_session_record_table; service/java/com/android/server/healthconnect/storage/datatypehelpers/SleepStageRecordHelper.java
CREATE TABLE IF NOT EXISTS sleep_stages_table (parent_key INTEGER NOT NULL, stage_start_time INTEGER NOT NULL, stage_end_time INTEGER NOT NULL, stage_type INTEGER NOT NULL,  FOREIGN KEY (parent_key) REFERENCES sleep_session_record_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_sleep_stages_table_0 ON sleep_stages_table(parent_key);

-- device_info_table: service/java/com/android/server/healthconnect/storage/datatypehelpers/DeviceInfoHelper.java
CREATE TABLE IF NOT EXISTS device_info_table (row_id INTEGER PRIMARY KEY, manufacturer TEXT, model TEXT, device_type INTEGER);

-- application_info_table: service/java/com/android/server/healthconnect/storage/datatypehelpers/AppInfoHelper.java (app_icon: the launcher icon as PNG bytes;
-- record_types_used: comma-separated record type ids)
CREATE TABLE IF NOT EXISTS application_info_table (row_id INTEGER PRIMARY KEY, package_name TEXT NOT NULL UNIQUE, app_name TEXT, app_icon BLOB, record_types_used TEXT);

-- activity_date_table: service/java/com/android/server/healthconnect/storage/datatypehelpers/ActivityDateHelper.java (which record types have data on which epoch day)
CREATE TABLE IF NOT EXISTS activity_date_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, epoch_days INTEGER NOT NULL, record_type_id INTEGER NOT NULL, UNIQUE ( epoch_days, record_type_id));

-- change_logs_table: service/java/com/android/server/healthconnect/storage/datatypehelpers/ChangeLogsHelper.java (emptied by the export)
CREATE TABLE IF NOT EXISTS change_logs_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, record_type INTEGER, app_id INTEGER, uuids BLOB NOT NULL, operation_type INTEGER, time INTEGER);
CREATE INDEX IF NOT EXISTS idx_change_logs_table_record_type ON change_logs_table(record_type);
CREATE INDEX IF NOT EXISTS idx_change_logs_table_app_id ON change_logs_table(app_id);

-- change_log_request_table: service/java/com/android/server/healthconnect/storage/datatypehelpers/ChangeLogsRequestHelper.java (emptied by the export)
CREATE TABLE IF NOT EXISTS change_log_request_table (row_id INTEGER PRIMARY KEY, packages_to_filter TEXT NOT NULL, package_name TEXT NOT NULL, record_types TEXT, row_id_change_logs_table INTEGER, time INTEGER);

-- health_data_category_priority_table: service/java/com/android/server/healthconnect/storage/datatypehelpers/HealthDataCategoryPriorityHelper.java
-- app_id_priority_order: application_info_table.row_id values joined by ",", highest priority first
CREATE TABLE IF NOT EXISTS health_data_category_priority_table (row_id INTEGER PRIMARY KEY, health_data_category INTEGER UNIQUE, app_id_priority_order TEXT NOT NULL);

-- preference_table: service/java/com/android/server/healthconnect/storage/datatypehelpers/PreferenceHelper.java
CREATE TABLE IF NOT EXISTS preference_table (key TEXT NOT NULL UNIQUE, value TEXT);

-- access_logs_table: service/java/com/android/server/healthconnect/storage/datatypehelpers/AccessLogsHelper.java (emptied by the export; the PHR columns
-- medical_resource_type / medical_data_source_accessed only arrive at version 15)
CREATE TABLE IF NOT EXISTS access_logs_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, app_id INTEGER NOT NULL, record_type TEXT NOT NULL, access_time INTEGER NOT NULL, operation_type INTEGER NOT NULL);

-- migration_entity_table: service/java/com/android/server/healthconnect/storage/datatypehelpers/MigrationEntityHelper.java
CREATE TABLE IF NOT EXISTS migration_entity_table (row_id INTEGER PRIMARY KEY, entity_id TEXT NOT NULL UNIQUE);

-- pre_migration_category_priority_table: service/java/com/android/server/healthconnect/migration/PriorityMigrationHelper.java
CREATE TABLE IF NOT EXISTS pre_migration_category_priority_table (category INTEGER UNIQUE, priority_order TEXT NOT NULL);

-- ===== Part 2: the upgrades DatabaseUpgradeHelper.onUpgrade runs after the initial set
-- (it then treats the database as version 10), in version order. =====

-- Version 11 (DB_VERSION_SKIN_TEMPERATURE): service/java/com/android/server/healthconnect/storage/datatypehelpers/SkinTemperatureRecordHelper.java, applySkinTemperatureUpgrade
-- skin_temperature_record_table: record type 39; interval record, baseline in Celsius
CREATE TABLE IF NOT EXISTS skin_temperature_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER, measurement_location INTEGER NOT NULL, baseline REAL, local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset), local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_skin_temperature_record_table_0 ON skin_temperature_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_skin_temperature_record_table_1 ON skin_temperature_record_table(app_info_id);
-- skin_temperature_delta_table: child of skin_temperature_record_table (delta in Celsius)
CREATE TABLE IF NOT EXISTS skin_temperature_delta_table (parent_key INTEGER, delta REAL NOT NULL, epoch_millis INTEGER NOT NULL,  FOREIGN KEY (parent_key) REFERENCES skin_temperature_record_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_skin_temperature_delta_table_0 ON skin_temperature_delta_table(parent_key);

-- Version 12 (DB_VERSION_PLANNED_EXERCISE_SESSIONS): service/java/com/android/server/healthconnect/storage/datatypehelpers/PlannedExerciseSessionRecordHelper.java and
-- ExerciseSessionRecordHelper.getAlterTableRequestForPlannedExerciseFeature; version 13 changed nothing.
-- planned_exercise_session_record_table: record type 40 (training plans)
CREATE TABLE IF NOT EXISTS planned_exercise_session_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER, notes TEXT, exercise_type INTEGER, title TEXT, has_explicit_time INTEGER, local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset), local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_planned_exercise_session_record_table_0 ON planned_exercise_session_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_planned_exercise_session_record_table_1 ON planned_exercise_session_record_table(app_info_id);
CREATE TABLE IF NOT EXISTS planned_exercise_session_blocks_table (block_row_id INTEGER PRIMARY KEY AUTOINCREMENT, block_parent_id INTEGER NOT NULL, block_description TEXT, repetitions INTEGER NOT NULL,  FOREIGN KEY (block_parent_id) REFERENCES planned_exercise_session_record_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_planned_exercise_session_blocks_table_0 ON planned_exercise_session_blocks_table(block_parent_id);
CREATE TABLE IF NOT EXISTS planned_exercise_session_steps_table (step_row_id INTEGER PRIMARY KEY AUTOINCREMENT, step_parent_id INTEGER NOT NULL, step_description TEXT, category INTEGER NOT NULL, step_exercise_type INTEGER NOT NULL,  FOREIGN KEY (step_parent_id) REFERENCES planned_exercise_session_blocks_table(block_row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_planned_exercise_session_steps_table_0 ON planned_exercise_session_steps_table(step_parent_id);
CREATE TABLE IF NOT EXISTS planned_exercise_session_goals_table (goal_row_id INTEGER PRIMARY KEY AUTOINCREMENT, goal_parent_id INTEGER NOT NULL, type_id INTEGER NOT NULL, goal_min BLOB, goal_max BLOB,  FOREIGN KEY (goal_parent_id) REFERENCES planned_exercise_session_steps_table(step_row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_planned_exercise_session_goals_table_0 ON planned_exercise_session_goals_table(goal_parent_id);
-- The two links between a plan and the session that carried it out are added with ALTER TABLE
-- (so they are the last columns of their tables), pointing at uuid, ON DELETE SET NULL.
ALTER TABLE planned_exercise_session_record_table ADD COLUMN completed_session_id BLOB NULL REFERENCES exercise_session_record_table(uuid) ON DELETE SET NULL;
ALTER TABLE exercise_session_record_table ADD COLUMN planned_exercise_session_id BLOB NULL REFERENCES planned_exercise_session_record_table(uuid) ON DELETE SET NULL;

-- Version 14 (DB_VERSION_MINDFULNESS_SESSION): service/java/com/android/server/healthconnect/storage/datatypehelpers/MindfulnessSessionRecordHelper.java, applyMindfulnessSessionUpgrade
-- mindfulness_session_record_table: record type 41
CREATE TABLE IF NOT EXISTS mindfulness_session_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER, type INTEGER, title TEXT, notes TEXT, local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset), local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_mindfulness_session_record_table_0 ON mindfulness_session_record_table(device_info_id);
CREATE INDEX IF NOT EXISTS idx_mindfulness_session_record_table_1 ON mindfulness_session_record_table(app_info_id);

-- SQLiteOpenHelper sets the version after onCreate: DatabaseVersions.LAST_ROLLED_OUT_DB_VERSION.
PRAGMA user_version = 14;

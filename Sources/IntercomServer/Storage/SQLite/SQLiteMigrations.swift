import GRDB

/// The SQLite schema, one migration per step; never edit a shipped migration, add a new one.
enum SQLiteMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-users-sessions", migrate: createUsersAndSessions)
        migrator.registerMigration("v1-classes", migrate: createClasses)
        migrator.registerMigration("v1-server-state", migrate: createServerState)
        migrator.registerMigration("v2-call-log", migrate: createCallLog)
        migrator.registerMigration("v3-file-owners", migrate: createFileRecords)
        return migrator
    }

    private static func createUsersAndSessions(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE "_User" (
                objectId TEXT PRIMARY KEY NOT NULL,
                username TEXT NOT NULL UNIQUE,
                passwordHash TEXT,
                anonymousId TEXT UNIQUE,
                body TEXT NOT NULL DEFAULT '{}',
                createdAt INTEGER NOT NULL,
                updatedAt INTEGER NOT NULL
            );
            CREATE TABLE "_Session" (
                objectId TEXT PRIMARY KEY NOT NULL,
                tokenHash TEXT NOT NULL UNIQUE,
                userId TEXT NOT NULL REFERENCES "_User"(objectId) ON DELETE CASCADE,
                installationId TEXT,
                createdWith TEXT NOT NULL,
                expiresAt INTEGER NOT NULL,
                createdAt INTEGER NOT NULL,
                updatedAt INTEGER NOT NULL
            );
            CREATE INDEX "_Session_userId" ON "_Session"(userId, installationId);
            CREATE INDEX "_Session_expiresAt" ON "_Session"(expiresAt);
            """)
    }

    private static func createClasses(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE ActiveUsers (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                objectId TEXT NOT NULL UNIQUE,
                createdAt INTEGER NOT NULL,
                updatedAt INTEGER NOT NULL,
                body TEXT NOT NULL,
                userID TEXT UNIQUE,
                latitude REAL,
                longitude REAL
            );
            CREATE INDEX ActiveUsers_updatedAt ON ActiveUsers(updatedAt);
            CREATE VIRTUAL TABLE ActiveUsers_geo USING rtree(id, minLatitude, maxLatitude, minLongitude, maxLongitude);
            CREATE TRIGGER ActiveUsers_geo_insert AFTER INSERT ON ActiveUsers WHEN NEW.latitude IS NOT NULL BEGIN
                INSERT INTO ActiveUsers_geo VALUES (NEW.id, NEW.latitude, NEW.latitude, NEW.longitude, NEW.longitude);
            END;
            CREATE TRIGGER ActiveUsers_geo_update AFTER UPDATE OF latitude, longitude ON ActiveUsers BEGIN
                DELETE FROM ActiveUsers_geo WHERE id = OLD.id;
                INSERT INTO ActiveUsers_geo SELECT NEW.id, NEW.latitude, NEW.latitude, NEW.longitude, NEW.longitude
                    WHERE NEW.latitude IS NOT NULL;
            END;
            CREATE TRIGGER ActiveUsers_geo_delete AFTER DELETE ON ActiveUsers BEGIN
                DELETE FROM ActiveUsers_geo WHERE id = OLD.id;
            END;
            CREATE TABLE ActiveSessions (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                objectId TEXT NOT NULL UNIQUE,
                createdAt INTEGER NOT NULL,
                updatedAt INTEGER NOT NULL,
                body TEXT NOT NULL,
                callerID TEXT,
                receiverID TEXT,
                sessionID TEXT UNIQUE,
                expiresAt INTEGER
            );
            CREATE INDEX ActiveSessions_callerID ON ActiveSessions(callerID);
            CREATE INDEX ActiveSessions_receiverID ON ActiveSessions(receiverID);
            CREATE INDEX ActiveSessions_expiresAt ON ActiveSessions(expiresAt);
            CREATE TABLE "_SchemaField" (
                className TEXT NOT NULL,
                fieldName TEXT NOT NULL,
                type TEXT NOT NULL,
                PRIMARY KEY (className, fieldName)
            ) WITHOUT ROWID;
            """)
    }

    private static func createServerState(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE "_TokenKey" (
                kid TEXT PRIMARY KEY NOT NULL,
                secret BLOB NOT NULL,
                createdAt INTEGER NOT NULL
            );
            CREATE TABLE "_CallSession" (
                sessionID TEXT PRIMARY KEY NOT NULL,
                callerID TEXT NOT NULL,
                receiverID TEXT NOT NULL,
                createdAt INTEGER NOT NULL,
                expiresAt INTEGER NOT NULL
            );
            CREATE INDEX "_CallSession_expiresAt" ON "_CallSession"(expiresAt);
            CREATE TABLE "_Idempotency" (
                requestId TEXT PRIMARY KEY NOT NULL,
                expiresAt INTEGER NOT NULL
            );
            CREATE INDEX "_Idempotency_expiresAt" ON "_Idempotency"(expiresAt);
            """)
    }

    /// `readers` holds the ACL's readers as `,id1,id2,` (`*` for public), so visibility is one `instr`.
    private static func createCallLog(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE CallLog (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                objectId TEXT NOT NULL UNIQUE,
                createdAt INTEGER NOT NULL,
                updatedAt INTEGER NOT NULL,
                body TEXT NOT NULL,
                userID TEXT,
                readers TEXT NOT NULL DEFAULT ''
            );
            CREATE INDEX CallLog_userID ON CallLog(userID);
            CREATE INDEX CallLog_createdAt ON CallLog(createdAt);
            """)
    }

    /// Who uploaded each Parse File (`FileRecordStore`). Files stored before this migration have no
    /// record: no row may reference them and no row's deletion removes them; the retention sweep still does.
    private static func createFileRecords(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE "_File" (
                name TEXT PRIMARY KEY NOT NULL,
                ownerId TEXT,
                size INTEGER NOT NULL,
                contentType TEXT NOT NULL,
                createdAt INTEGER NOT NULL
            );
            CREATE INDEX "_File_createdAt" ON "_File"(createdAt);
            """)
    }
}

import Foundation
import PostgresNIO

/// The PostgreSQL schema, one migration per step, recorded in `"_Migration"`; never edit a shipped step,
/// add one. The tables mirror SQLite's (`SQLiteMigrations`), with `bigint` times, `bytea` keys, and a GiST
/// index on `point(longitude, latitude)` where SQLite keeps an R*Tree. Instances starting together take
/// turns under an advisory lock, so each step runs once.
enum PostgresMigrations {
    static let steps: [(name: String, sql: String)] = [
        ("v1-schema", """
            CREATE TABLE "_User" (
                objectId TEXT PRIMARY KEY NOT NULL,
                username TEXT NOT NULL UNIQUE,
                passwordHash TEXT,
                anonymousId TEXT UNIQUE,
                body TEXT NOT NULL DEFAULT '{}',
                createdAt BIGINT NOT NULL,
                updatedAt BIGINT NOT NULL
            );
            CREATE TABLE "_Session" (
                objectId TEXT PRIMARY KEY NOT NULL,
                tokenHash TEXT NOT NULL UNIQUE,
                userId TEXT NOT NULL REFERENCES "_User"(objectId) ON DELETE CASCADE,
                installationId TEXT,
                createdWith TEXT NOT NULL,
                expiresAt BIGINT NOT NULL,
                createdAt BIGINT NOT NULL,
                updatedAt BIGINT NOT NULL
            );
            CREATE INDEX "_Session_userId" ON "_Session"(userId, installationId);
            CREATE INDEX "_Session_expiresAt" ON "_Session"(expiresAt);
            CREATE TABLE ActiveUsers (
                id BIGSERIAL PRIMARY KEY,
                objectId TEXT NOT NULL UNIQUE,
                createdAt BIGINT NOT NULL,
                updatedAt BIGINT NOT NULL,
                body TEXT NOT NULL,
                userID TEXT UNIQUE,
                latitude DOUBLE PRECISION,
                longitude DOUBLE PRECISION
            );
            CREATE INDEX ActiveUsers_updatedAt ON ActiveUsers(updatedAt);
            CREATE INDEX ActiveUsers_geo ON ActiveUsers USING gist (point(longitude, latitude));
            CREATE TABLE ActiveSessions (
                id BIGSERIAL PRIMARY KEY,
                objectId TEXT NOT NULL UNIQUE,
                createdAt BIGINT NOT NULL,
                updatedAt BIGINT NOT NULL,
                body TEXT NOT NULL,
                callerID TEXT,
                receiverID TEXT,
                sessionID TEXT UNIQUE,
                expiresAt BIGINT
            );
            CREATE INDEX ActiveSessions_callerID ON ActiveSessions(callerID);
            CREATE INDEX ActiveSessions_receiverID ON ActiveSessions(receiverID);
            CREATE INDEX ActiveSessions_expiresAt ON ActiveSessions(expiresAt);
            CREATE TABLE "_SchemaField" (
                className TEXT NOT NULL,
                fieldName TEXT NOT NULL,
                type TEXT NOT NULL,
                PRIMARY KEY (className, fieldName)
            );
            CREATE TABLE "_TokenKey" (
                kid TEXT PRIMARY KEY NOT NULL,
                secret BYTEA NOT NULL,
                createdAt BIGINT NOT NULL
            );
            CREATE TABLE "_CallSession" (
                sessionID TEXT PRIMARY KEY NOT NULL,
                callerID TEXT NOT NULL,
                receiverID TEXT NOT NULL,
                createdAt BIGINT NOT NULL,
                expiresAt BIGINT NOT NULL
            );
            CREATE INDEX "_CallSession_expiresAt" ON "_CallSession"(expiresAt);
            CREATE TABLE "_Idempotency" (
                requestId TEXT PRIMARY KEY NOT NULL,
                expiresAt BIGINT NOT NULL
            );
            CREATE INDEX "_Idempotency_expiresAt" ON "_Idempotency"(expiresAt);
            CREATE TABLE CallLog (
                id BIGSERIAL PRIMARY KEY,
                objectId TEXT NOT NULL UNIQUE,
                createdAt BIGINT NOT NULL,
                updatedAt BIGINT NOT NULL,
                body TEXT NOT NULL,
                userID TEXT,
                readers TEXT NOT NULL DEFAULT ''
            );
            CREATE INDEX CallLog_userID ON CallLog(userID);
            CREATE INDEX CallLog_createdAt ON CallLog(createdAt);
            CREATE TABLE "_File" (
                name TEXT PRIMARY KEY NOT NULL,
                ownerId TEXT,
                size BIGINT NOT NULL,
                contentType TEXT NOT NULL,
                createdAt BIGINT NOT NULL
            );
            CREATE INDEX "_File_createdAt" ON "_File"(createdAt);
            CREATE TABLE "_Instance" (
                id TEXT PRIMARY KEY NOT NULL,
                lastSeen TIMESTAMPTZ NOT NULL
            );
            CREATE TABLE "_SignalRoom" (
                sessionID TEXT PRIMARY KEY NOT NULL,
                owner TEXT NOT NULL,
                claimedAt TIMESTAMPTZ NOT NULL DEFAULT now()
            );
            CREATE TABLE "_ChangeSpill" (
                id BIGSERIAL PRIMARY KEY,
                payload TEXT NOT NULL,
                createdAt TIMESTAMPTZ NOT NULL DEFAULT now()
            );
            """),
        // Parse Files' bytes (FileStore): every instance serves every file.
        ("v2-file-data", """
            CREATE TABLE "_FileData" (
                name TEXT PRIMARY KEY NOT NULL,
                bytes BYTEA NOT NULL,
                createdAt BIGINT NOT NULL
            );
            CREATE INDEX "_FileData_createdAt" ON "_FileData"(createdAt)
            """),
    ]

    /// Creates the schema if missing and applies the steps not yet recorded, in one transaction.
    static func migrate(_ connection: PostgresConnection, schema: String, logger: Logger) throws -> [String] {
        let session = PostgresTransaction(connection: connection, logger: logger)
        try session.execute("BEGIN")
        do {
            try session.execute("SELECT pg_advisory_xact_lock(hashtext(?))", ["intercom-migrate:" + schema])
            try session.execute("CREATE SCHEMA IF NOT EXISTS \(schema)")
            try session.execute("SET search_path TO \(schema)")
            try session.execute(#"CREATE TABLE IF NOT EXISTS "_Migration" (name TEXT PRIMARY KEY, appliedAt TIMESTAMPTZ NOT NULL DEFAULT now())"#)
            let applied = Set(try session.values(String.self, #"SELECT name FROM "_Migration""#))
            var ran: [String] = []
            for step in steps where !applied.contains(step.name) {
                // PostgresNIO speaks only the extended protocol, one statement per message; the steps hold no
                // `;` except between statements.
                for statement in step.sql.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) })
                    where !statement.isEmpty {
                    try session.execute(statement)
                }
                try session.execute(#"INSERT INTO "_Migration" (name) VALUES (?)"#, [step.name])
                ran.append(step.name)
            }
            try session.execute("COMMIT")
            return ran
        } catch {
            _ = try? session.execute("ROLLBACK")
            throw error
        }
    }
}

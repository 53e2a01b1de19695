#!/bin/bash
# Which PostgreSQL geo index answers the server's `$nearSphere` best (issue #24: "measure both, keep one").
# One table of ROWS devices spread like bench-backend's (latitude 47…53, longitude 6…14), three GiST indexes on
# it, and QUERIES random 10 km queries of each kind, nearest 100 first, timed inside PostgreSQL (no client or
# network in the figure):
#   point        the built-in type (what the server uses): the bounding box on `point(longitude, latitude)`,
#                then the great-circle distance and order;
#   earthdistance the cube/earthdistance contrib: `earth_box(ll_to_earth(…), r) @> ll_to_earth(…)` and
#                `earth_distance`;
#   postgis      PostGIS geography: `ST_DWithin` and `ST_Distance` (needs Debian's postgresql-15-postgis-3).
# Prints p50 / p95 / p99 in ms per kind, the rows each found for the same centre (they must agree within the
# kinds' earth models), each index's size, and the command. A missing tool fails and says which.
# Usage: Tests/postgres/geo-index-compare.sh [ROWS] [QUERIES]      (default 1000000 200)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
rows=${1:-1000000}
queries=${2:-200}
echo "command: $0 $rows $queries"
if [ ! -f /usr/share/postgresql/15/extension/postgis.control ]; then
    echo "FAIL geo-index-compare — PostGIS is missing (apt-get install postgresql-15-postgis-3)"
    exit 1
fi
. "$here/pg-cluster.sh"
pg_cluster_start || exit 1
pg_cluster_trap
url=$(pg_cluster_createdb geo_compare)
psql() { command psql "$url" -X -q -v ON_ERROR_STOP=1 "$@"; }

echo "filling $rows rows and building three GiST indexes (a minute or two)…"
psql <<SQL
CREATE EXTENSION cube;
CREATE EXTENSION earthdistance;
CREATE EXTENSION postgis;
CREATE TABLE devices (id BIGSERIAL PRIMARY KEY, latitude DOUBLE PRECISION, longitude DOUBLE PRECISION);
DO \$\$ BEGIN PERFORM setseed(0.24); END \$\$;
INSERT INTO devices (latitude, longitude)
    SELECT 47 + random() * 6, 6 + random() * 8 FROM generate_series(1, $rows);
CREATE INDEX devices_point ON devices USING gist (point(longitude, latitude));
CREATE INDEX devices_earth ON devices USING gist (ll_to_earth(latitude, longitude));
CREATE INDEX devices_geography ON devices USING gist ((ST_MakePoint(longitude, latitude)::geography));
ANALYZE devices;
SQL

psql <<SQL
-- The great-circle distance in metres (the server's check; 6371 km sphere).
CREATE FUNCTION haversine(lat1 float8, lon1 float8, lat2 float8, lon2 float8) RETURNS float8 IMMUTABLE
LANGUAGE sql AS \$\$
    SELECT 2 * 6371000 * asin(sqrt(sin(radians(lat2 - lat1) / 2) ^ 2
        + cos(radians(lat1)) * cos(radians(lat2)) * sin(radians(lon2 - lon1) / 2) ^ 2))
\$\$;
CREATE TABLE timings (kind TEXT, query INT, ms FLOAT8, found INT);
DO \$\$
DECLARE
    centre_lat float8; centre_lon float8; dlat float8; dlon float8; started timestamptz; found int;
BEGIN
    PERFORM setseed(0.5);
    FOR q IN 1..$queries LOOP
        centre_lat := 47.5 + random() * 5; centre_lon := 6.5 + random() * 7;
        dlat := degrees(10000.0 / 6371000); dlon := dlat / cos(radians(centre_lat));
        started := clock_timestamp();
        SELECT count(*) INTO found FROM (SELECT id FROM devices
            WHERE point(longitude, latitude) <@ box(point(centre_lon - dlon, centre_lat - dlat), point(centre_lon + dlon, centre_lat + dlat))
              AND haversine(centre_lat, centre_lon, latitude, longitude) <= 10000
            ORDER BY haversine(centre_lat, centre_lon, latitude, longitude) LIMIT 100) nearest;
        INSERT INTO timings VALUES ('point', q, extract(epoch FROM clock_timestamp() - started) * 1000, found);
        started := clock_timestamp();
        SELECT count(*) INTO found FROM (SELECT id FROM devices
            WHERE earth_box(ll_to_earth(centre_lat, centre_lon), 10000) @> ll_to_earth(latitude, longitude)
              AND earth_distance(ll_to_earth(centre_lat, centre_lon), ll_to_earth(latitude, longitude)) <= 10000
            ORDER BY earth_distance(ll_to_earth(centre_lat, centre_lon), ll_to_earth(latitude, longitude)) LIMIT 100) nearest;
        INSERT INTO timings VALUES ('earthdistance', q, extract(epoch FROM clock_timestamp() - started) * 1000, found);
        started := clock_timestamp();
        SELECT count(*) INTO found FROM (SELECT id FROM devices
            WHERE ST_DWithin(ST_MakePoint(longitude, latitude)::geography, ST_MakePoint(centre_lon, centre_lat)::geography, 10000, false)
            ORDER BY ST_Distance(ST_MakePoint(longitude, latitude)::geography, ST_MakePoint(centre_lon, centre_lat)::geography, false)
            LIMIT 100) nearest;
        INSERT INTO timings VALUES ('postgis', q, extract(epoch FROM clock_timestamp() - started) * 1000, found);
    END LOOP;
END \$\$;
SQL

echo "10 km, nearest 100, over $rows rows, $queries queries each (ms inside PostgreSQL):"
psql -A -F ' ' -t <<SQL
SELECT rpad(kind, 14) || ' p50 ' || round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 2)
       || '  p95 ' || round(percentile_cont(0.95) WITHIN GROUP (ORDER BY ms)::numeric, 2)
       || '  p99 ' || round(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms)::numeric, 2)
       || ' ms, mean rows ' || round(avg(found), 1)
FROM timings GROUP BY kind ORDER BY kind;
SELECT 'index ' || rpad(relname, 18) || ' ' || pg_size_pretty(pg_relation_size(oid))
FROM pg_class WHERE relname IN ('devices_point', 'devices_earth', 'devices_geography') ORDER BY relname;
SQL
psql -A -t -c "SELECT format('queries whose row counts differ between kinds: %s of %s', count(*), $queries) FROM
    (SELECT query FROM timings GROUP BY query HAVING min(found) <> max(found)) d"

#!/bin/sh
# Runs once, when the primary's data directory is created (the postgres
# image runs /docker-entrypoint-initdb.d/*.sh): lets the replica service
# stream from it with the same user and password.
set -eu
echo "host replication ${POSTGRES_USER} all scram-sha-256" >> "${PGDATA}/pg_hba.conf"

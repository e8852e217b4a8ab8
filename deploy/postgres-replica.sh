#!/bin/sh
# The replica service: on its first start, copies the primary with
# pg_basebackup (-R writes the standby's connection), then runs as a hot
# standby streaming from it.
set -eu
if [ ! -s "${PGDATA}/PG_VERSION" ]; then
  until pg_isready -h db -U "${POSTGRES_USER}" -d "${POSTGRES_DB}"; do sleep 1; done
  rm -rf "${PGDATA:?}"/*
  PGPASSWORD="${POSTGRES_PASSWORD}" pg_basebackup -h db -U "${POSTGRES_USER}" \
    -D "${PGDATA}" -R -X stream -c fast
  chmod 0700 "${PGDATA}"
fi
exec postgres -c hot_standby=on

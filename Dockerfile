# syntax=docker/dockerfile:1
# Multi-stage build: dependencies are compiled in their own cached layer
# (cargo-chef), the runtime image holds only the binary and runs as a
# non-root user. SQLite, libpq and OpenSSL are linked statically, so the
# runtime needs no database client or TLS libraries.

ARG RUST_VERSION=1.95
ARG DEBIAN_RELEASE=bookworm

FROM rust:${RUST_VERSION}-slim-${DEBIAN_RELEASE} AS chef
# libpq's TLS is OpenSSL, built from source with the binary: it needs perl
# (with its core modules, which the slim image lacks) and make.
RUN apt-get update \
    && apt-get install -y --no-install-recommends perl make \
    && rm -rf /var/lib/apt/lists/*
RUN cargo install cargo-chef --locked
WORKDIR /app

# Only the manifests and lock file decide the dependency layer.
FROM chef AS planner
COPY . .
RUN cargo chef prepare --recipe-path recipe.json

FROM chef AS builder
COPY --from=planner /app/recipe.json recipe.json
# The `dist` profile (Cargo.toml): the build the benchmarks measure.
RUN cargo chef cook --profile dist --recipe-path recipe.json
COPY . .
RUN cargo build --profile dist --locked -p api --bin api \
    && cp target/dist/api /usr/local/bin/api

FROM debian:${DEBIAN_RELEASE}-slim AS runtime
RUN groupadd --system --gid 10001 stratego \
    && useradd --system --uid 10001 --gid stratego --home-dir /data --shell /usr/sbin/nologin stratego \
    && mkdir -p /data && chown stratego:stratego /data
COPY --from=builder /usr/local/bin/api /usr/local/bin/api
USER stratego:stratego
WORKDIR /data
# Listen on every interface inside the container. Without DATABASE_URL the
# server keeps an SQLite file (and its generated JWT secret) in /data.
ENV BIND_ADDRESS=0.0.0.0:8080 \
    DATABASE_URL=sqlite:///data/stratego.db \
    LOG_FORMAT=json
VOLUME ["/data"]
EXPOSE 8080
# The binary probes itself (`api healthcheck` GETs /healthz on BIND_ADDRESS).
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
    CMD ["/usr/local/bin/api", "healthcheck"]
# SIGTERM starts a graceful shutdown (in-flight requests finish).
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/api"]
CMD ["serve"]

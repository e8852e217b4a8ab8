//! What the server counts for Prometheus (docs/metrics.md): one registry
//! for the process, its collectors created once, bumped where things
//! happen and rendered by `GET /metrics` in the text exposition format.
//! A leaf: it knows nothing of the service, and the service bumps it.

use std::sync::LazyLock;

use prometheus::{
    Encoder, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge, IntGaugeVec, Opts,
    Registry, TextEncoder,
};

/// Every collector of the process.
pub struct Metrics {
    registry: Registry,
    /// Answers by method, route template and status class.
    pub requests: IntCounterVec,
    /// Seconds from request to answer by method and route template.
    pub latency: HistogramVec,
    /// Connections of the pool by state: `in_use`, `idle` (set when
    /// scraped).
    pub pool: IntGaugeVec,
    /// Requests waiting for a connection of the pool.
    pub pool_waiting: IntGauge,
    /// Statements PostgreSQL cancelled at `statement_timeout`.
    pub statement_timeouts: IntCounter,
    /// Event and game streams open now.
    pub streams: IntGauge,
    /// Long polls waiting now.
    pub long_polls: IntGauge,
    /// Announcements that woke waiters (this process's and others').
    pub wakeups: IntCounter,
    /// Deliveries not yet sent or given up.
    pub outbox_depth: IntGauge,
    /// Delivery attempts by channel and outcome.
    pub deliveries: IntCounterVec,
    /// Lookups of the recent games by what looked and outcome.
    pub cache_lookups: IntCounterVec,
    /// Bytes the recent games hold.
    pub cache_bytes: IntGauge,
    /// Moves the bots made.
    pub bot_moves: IntCounter,
    /// Passes of the background tasks by task.
    pub sweeps: IntCounterVec,
    /// Reads that could go to a replica, by where they were answered.
    pub replica_reads: IntCounterVec,
    /// 1 while a replica is read, 0 while it is passed over.
    pub replica_fit: IntGaugeVec,
}

/// The process's metrics.
pub static METRICS: LazyLock<Metrics> = LazyLock::new(Metrics::new);

/// Latency buckets, in seconds: from a cached view to a slow database.
const BUCKETS: [f64; 14] = [
    0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

fn opts(name: &str, help: &str) -> Opts {
    Opts::new(name, help).namespace("stratego")
}

impl Metrics {
    fn new() -> Metrics {
        let registry = Registry::new();
        let counter_vec = |name, help, labels: &[&str]| {
            let c = IntCounterVec::new(opts(name, help), labels).unwrap_or_else(|e| bad(name, &e));
            register(&registry, Box::new(c.clone()), name);
            c
        };
        let counter = |name, help| {
            let c = IntCounter::with_opts(opts(name, help)).unwrap_or_else(|e| bad(name, &e));
            register(&registry, Box::new(c.clone()), name);
            c
        };
        let gauge = |name, help| {
            let g = IntGauge::with_opts(opts(name, help)).unwrap_or_else(|e| bad(name, &e));
            register(&registry, Box::new(g.clone()), name);
            g
        };
        let latency = HistogramVec::new(
            HistogramOpts::new(
                "http_request_duration_seconds",
                "Seconds from a request to its answer",
            )
            .namespace("stratego")
            .buckets(BUCKETS.to_vec()),
            &["method", "route"],
        )
        .unwrap_or_else(|e| bad("latency", &e));
        register(&registry, Box::new(latency.clone()), "latency");
        let pool = IntGaugeVec::new(
            opts("db_pool_connections", "Connections of the pool by state"),
            &["state"],
        )
        .unwrap_or_else(|e| bad("pool", &e));
        register(&registry, Box::new(pool.clone()), "pool");
        let replica_fit = IntGaugeVec::new(
            opts(
                "db_replica_fit",
                "1 while a read replica is read, 0 while it is passed over",
            ),
            &["replica"],
        )
        .unwrap_or_else(|e| bad("replica_fit", &e));
        register(&registry, Box::new(replica_fit.clone()), "replica_fit");
        Metrics {
            requests: counter_vec(
                "http_requests_total",
                "Answers by method, route template and status class",
                &["method", "route", "status"],
            ),
            latency,
            pool,
            pool_waiting: gauge(
                "db_pool_waiting",
                "Work waiting for a connection of the pool",
            ),
            statement_timeouts: counter(
                "db_statement_timeouts_total",
                "Statements cancelled at the statement timeout",
            ),
            streams: gauge("streams_open", "Event and game streams open"),
            long_polls: gauge("long_polls_waiting", "Long polls waiting for a change"),
            wakeups: counter(
                "wakeups_total",
                "Announcements of a change that woke this process's waiters",
            ),
            outbox_depth: gauge("outbox_depth", "Deliveries waiting to be sent or retried"),
            deliveries: counter_vec(
                "outbox_deliveries_total",
                "Delivery attempts by channel and outcome",
                &["channel", "outcome"],
            ),
            cache_lookups: counter_vec(
                "cache_lookups_total",
                "Lookups of the recent games by what looked (a change, a view) and outcome",
                &["lookup", "outcome"],
            ),
            cache_bytes: gauge("cache_bytes", "Bytes the recent games hold"),
            bot_moves: counter("bot_moves_total", "Moves the bots made"),
            sweeps: counter_vec(
                "sweeps_total",
                "Passes of the background tasks by task",
                &["task"],
            ),
            replica_reads: counter_vec(
                "db_replica_reads_total",
                "Reads that could go to a replica, by where they were answered",
                &["answered_by"],
            ),
            replica_fit,
            registry,
        }
    }

    /// Everything, in the Prometheus text exposition format.
    pub fn render(&self) -> String {
        let mut out = Vec::new();
        if let Err(error) = TextEncoder::new().encode(&self.registry.gather(), &mut out) {
            tracing::warn!(%error, "metrics not rendered");
        }
        String::from_utf8(out).unwrap_or_default()
    }
}

/// The status class of a status code (`2xx`, `4xx`, ...).
pub fn status_class(status: u16) -> &'static str {
    match status / 100 {
        1 => "1xx",
        2 => "2xx",
        3 => "3xx",
        4 => "4xx",
        _ => "5xx",
    }
}

/// Counts one more while alive (an open stream, a waiting long poll).
pub struct Open(&'static IntGauge);

impl Open {
    pub fn new(gauge: &'static IntGauge) -> Open {
        gauge.inc();
        Open(gauge)
    }
}

impl Drop for Open {
    fn drop(&mut self) {
        self.0.dec();
    }
}

fn register(registry: &Registry, collector: Box<dyn prometheus::core::Collector>, name: &str) {
    if let Err(error) = registry.register(collector) {
        bad::<()>(name, &error);
    }
}

/// A collector that cannot be made is a bug of this file (a bad name or
/// a name used twice), found by its tests before any server runs.
fn bad<T>(name: &str, error: &prometheus::Error) -> T {
    panic!("metric {name}: {error}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_metric_is_made_and_rendered() {
        METRICS
            .requests
            .with_label_values(&["GET", "/x", "2xx"])
            .inc();
        METRICS
            .latency
            .with_label_values(&["GET", "/x"])
            .observe(0.003);
        let text = METRICS.render();
        assert!(
            text.contains(
                "stratego_http_requests_total{method=\"GET\",route=\"/x\",status=\"2xx\"} 1"
            ),
            "{text}"
        );
        assert!(
            text.contains("stratego_http_request_duration_seconds_bucket"),
            "{text}"
        );
        assert_eq!(status_class(204), "2xx");
        assert_eq!(status_class(503), "5xx");
        {
            let _open = Open::new(&METRICS.long_polls);
            assert_eq!(METRICS.long_polls.get(), 1);
        }
        assert_eq!(METRICS.long_polls.get(), 0);
    }

    /// The Grafana dashboard in `deploy/` charts only metrics that exist.
    #[test]
    fn the_dashboard_names_only_these_metrics() {
        METRICS.pool.with_label_values(&["idle"]).set(1);
        METRICS
            .deliveries
            .with_label_values(&["push", "delivered"])
            .inc();
        METRICS
            .cache_lookups
            .with_label_values(&["view", "hit"])
            .inc();
        METRICS.sweeps.with_label_values(&["outbox"]).inc();
        METRICS
            .requests
            .with_label_values(&["GET", "/y", "2xx"])
            .inc();
        METRICS
            .latency
            .with_label_values(&["GET", "/y"])
            .observe(0.01);
        let text = METRICS.render();
        let dashboard = include_str!("../../deploy/grafana-dashboard.json");
        let mut named = 0;
        for (at, _) in dashboard.match_indices("stratego_") {
            let name: String = dashboard[at..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let family = name.trim_end_matches("_bucket");
            if family == "stratego_" || family == "stratego_server" {
                continue;
            }
            named += 1;
            assert!(
                text.contains(&format!("# TYPE {family} ")),
                "{family} is not a metric"
            );
        }
        assert!(named >= 10, "{named}");
    }
}

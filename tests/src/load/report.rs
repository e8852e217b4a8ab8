//! The load's tables: one run's (`table`) and the comparison of the
//! backends beside pgbench (`compare`, for `bench/run.sh`).

use super::{Report, EARLY_PLIES};

/// The human table of one run.
pub fn table(report: &Report) -> String {
    let mut out = String::new();
    let line = |out: &mut String, text: String| {
        out.push_str(&text);
        out.push('\n');
    };
    line(
        &mut out,
        format!(
            "{} clients; moves {:.1} s, views {:.1} s; setup {:.1} s; seed {}",
            report.clients,
            report.move_seconds,
            report.view_seconds,
            report.setup_seconds,
            report.seed
        ),
    );
    line(
        &mut out,
        format!(
            "{:<11} {:<36} {:>8} {:>9} {:>8} {:>8} {:>8} {:>8}",
            "phase", "request", "count", "per s", "p50 ms", "p90 ms", "p99 ms", "max ms"
        ),
    );
    for row in &report.rows {
        let l = &row.latency;
        line(
            &mut out,
            format!(
                "{:<11} {:<36} {:>8} {:>9.1} {:>8.2} {:>8.2} {:>8.2} {:>8.2}",
                row.phase, row.kind, l.count, l.per_second, l.p50_ms, l.p90_ms, l.p99_ms, l.max_ms
            ),
        );
    }
    line(
        &mut out,
        format!(
            "move phase: {} games started, {} ended, highest ply {}",
            report.games_started, report.games_ended, report.max_ply
        ),
    );
    let long = &report.long_games;
    if long.wanted > 0 {
        line(
            &mut out,
            format!(
                "long games: {} of {} passed ply {} (highest {}) in {:.1} s; ply > {} vs ply < \
                 {EARLY_PLIES}: p50 x{:.2}, p99 x{:.2}",
                long.reached,
                long.wanted,
                long.plies,
                long.max_ply,
                long.seconds,
                long.late_from,
                long.p50_ratio,
                long.p99_ratio
            ),
        );
    }
    let server = &report.server;
    if let Some(pid) = server.pid {
        line(
            &mut out,
            format!(
                "server (pid {pid}): peak RSS {:.1} MiB (VmHWM), RSS {:.1} MiB at start, {:.1} \
                 MiB at end; CPU {:.3} ms per move (with its GET; {:.2} cores), {:.3} ms per view \
                 ({:.2} cores)",
                kib_to_mib(server.peak_rss_kib),
                kib_to_mib(server.rss_start_kib),
                kib_to_mib(server.rss_end_kib),
                server.cpu_ms_per_move,
                server.cpu_cores_moves,
                server.cpu_ms_per_view,
                server.cpu_cores_views
            ),
        );
    }
    let machine = &report.machine;
    line(
        &mut out,
        format!(
            "CPU in cores of {}: moves: load generator {:.2}, whole machine {:.2}; views: load \
             generator {:.2}, whole machine {:.2}",
            machine.cores,
            machine.client_cores_moves,
            machine.busy_cores_moves,
            machine.client_cores_views,
            machine.busy_cores_views
        ),
    );
    if let Some(notify) = &report.notify {
        let during = &notify.during_moves;
        let moves = report.rows.first().map_or(0, |row| row.latency.count);
        line(
            &mut out,
            format!(
                "notifications: {} webhooks, {} push subscriptions; received during the move \
                 phase: {} webhook + {} push ({:.1}/s, {:.2} per move), refused {}; in the \
                 whole run: {} webhook + {} push",
                notify.webhooks,
                notify.subscriptions,
                during.webhook,
                during.push,
                during.total() as f64 / report.move_seconds.max(1e-9),
                if moves > 0 {
                    during.total() as f64 / moves as f64
                } else {
                    0.0
                },
                notify.in_all.refused,
                notify.in_all.webhook,
                notify.in_all.push
            ),
        );
    }
    line(&mut out, format!("errors: {}", report.errors));
    for sample in &report.error_samples {
        line(&mut out, format!("  {sample}"));
    }
    out
}

fn kib_to_mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

/// pgbench's figures for the comparison table.
#[derive(Debug, Clone, Copy, Default)]
pub struct Pgbench {
    /// TPC-B-like transactions per second.
    pub tpcb: f64,
    /// Select-only transactions per second (`-S`).
    pub select_only: f64,
    /// p99 latency of the TPC-B-like transactions (from pgbench's
    /// per-transaction log; 0 when not known).
    pub tpcb_p99_ms: f64,
}

/// ONE table for `bench/run.sh`: each backend's report beside pgbench.
pub fn compare(backends: &[(&str, &Report)], pgbench: Pgbench) -> String {
    let mut out = String::new();
    let mut header = format!("{:<34}", "");
    for (name, _) in backends {
        header.push_str(&format!(" {name:>14}"));
    }
    out.push_str(&header);
    out.push('\n');
    let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
    type Cell = Box<dyn Fn(&Report) -> String>;
    let rows: Vec<(&str, Cell)> = vec![
        ("clients", Box::new(|r| r.clients.to_string())),
        (
            "moves/s (each with its GET)",
            Box::new(|r| format!("{:.0}", r.moves_per_second)),
        ),
        ("move p99 ms", Box::new(|r| format!("{:.2}", r.move_p99_ms))),
        (
            "views/s",
            Box::new(|r| format!("{:.0}", r.views_per_second)),
        ),
        ("view p99 ms", Box::new(|r| format!("{:.2}", r.view_p99_ms))),
        ("errors", Box::new(|r| r.errors.to_string())),
        (
            "deliveries in moves, hook / push",
            Box::new(|r| match &r.notify {
                Some(n) => format!("{} / {}", n.during_moves.webhook, n.during_moves.push),
                None => "-".to_owned(),
            }),
        ),
        (
            "server peak RSS MiB",
            Box::new(|r| format!("{:.1}", kib_to_mib(r.server.peak_rss_kib))),
        ),
        (
            "server CPU ms per move",
            Box::new(|r| format!("{:.3}", r.server.cpu_ms_per_move)),
        ),
        (
            "server CPU ms per view",
            Box::new(|r| format!("{:.3}", r.server.cpu_ms_per_view)),
        ),
        (
            "server CPU cores, moves / views",
            Box::new(|r| {
                format!(
                    "{:.2} / {:.2}",
                    r.server.cpu_cores_moves, r.server.cpu_cores_views
                )
            }),
        ),
        (
            "load tool CPU cores, moves / views",
            Box::new(|r| {
                format!(
                    "{:.2} / {:.2}",
                    r.machine.client_cores_moves, r.machine.client_cores_views
                )
            }),
        ),
        (
            "machine busy cores, moves / views",
            Box::new(|r| {
                format!(
                    "{:.2} / {:.2}",
                    r.machine.busy_cores_moves, r.machine.busy_cores_views
                )
            }),
        ),
        (
            "pgbench TPC-B tps",
            Box::new(move |_| format!("{:.0}", pgbench.tpcb)),
        ),
        (
            "pgbench TPC-B p99 ms",
            Box::new(move |_| format!("{:.2}", pgbench.tpcb_p99_ms)),
        ),
        (
            "pgbench select-only tps",
            Box::new(move |_| format!("{:.0}", pgbench.select_only)),
        ),
        (
            "moves/s / TPC-B tps",
            Box::new(move |r| format!("{:.2}", ratio(r.moves_per_second, pgbench.tpcb))),
        ),
        (
            "views/s / select-only tps",
            Box::new(move |r| format!("{:.3}", ratio(r.views_per_second, pgbench.select_only))),
        ),
        (
            "long games reached / wanted",
            Box::new(|r| format!("{}/{}", r.long_games.reached, r.long_games.wanted)),
        ),
        (
            "move p50 ply>1000 / ply<100",
            Box::new(|r| format!("{:.2}", r.long_games.p50_ratio)),
        ),
        (
            "move p99 ply>1000 / ply<100",
            Box::new(|r| format!("{:.2}", r.long_games.p99_ratio)),
        ),
    ];
    for (name, cell) in rows {
        let mut line = format!("{name:<34}");
        for (_, report) in backends {
            line.push_str(&format!(" {:>14}", cell(report)));
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

//! What the load costs the machine, read from `/proc`: the server's
//! resident memory and CPU time, this process's, and the whole machine's.

/// A `kB` field of `/proc/<pid>/status`, e.g. `VmHWM:`.
pub fn proc_status(pid: u32, field: &str) -> Result<u64, String> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .map_err(|e| format!("/proc/{pid}/status: {e}"))?;
    status
        .lines()
        .find_map(|line| line.strip_prefix(field))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|kib| kib.parse().ok())
        .ok_or_else(|| format!("no {field} in /proc/{pid}/status"))
}

/// CPU seconds used so far: by the server process (0 without a pid), by
/// this process, and by the whole machine.
pub(super) struct Cpu {
    pub(super) server: f64,
    pub(super) client: f64,
    pub(super) machine: f64,
}

impl Cpu {
    pub(super) fn now(pid: Option<u32>) -> Result<Self, String> {
        Ok(Self {
            server: match pid {
                Some(pid) => process_cpu(&pid.to_string())?,
                None => 0.0,
            },
            client: process_cpu("self")?,
            machine: machine_cpu()?,
        })
    }

    pub(super) fn minus(&self, before: &Cpu) -> Cpu {
        Cpu {
            server: self.server - before.server,
            client: self.client - before.client,
            machine: self.machine - before.machine,
        }
    }
}

/// User + system CPU seconds of process `pid` ("self": this one).
fn process_cpu(pid: &str) -> Result<f64, String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map_err(|e| format!("/proc/{pid}/stat: {e}"))?;
    // After the command name (in parentheses, may hold spaces): utime and
    // stime are fields 14 and 15 of the line, 12 and 13 after the name.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest.split_whitespace().collect())
        .unwrap_or_default();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok());
    match (ticks(11), ticks(12)) {
        // Clock ticks: 100 per second on Linux.
        (Some(user), Some(system)) => Ok((user + system) / 100.0),
        _ => Err(format!("bad /proc/{pid}/stat")),
    }
}

/// Busy CPU seconds of the whole machine (all cores, not idle or iowait).
fn machine_cpu() -> Result<f64, String> {
    let stat = std::fs::read_to_string("/proc/stat").map_err(|e| format!("/proc/stat: {e}"))?;
    let ticks: Vec<f64> = stat
        .lines()
        .next()
        .and_then(|line| line.strip_prefix("cpu "))
        .map(|rest| {
            rest.split_whitespace()
                .filter_map(|f| f.parse().ok())
                .collect()
        })
        .unwrap_or_default();
    if ticks.len() < 8 {
        return Err("bad /proc/stat".into());
    }
    // user nice system idle iowait irq softirq steal (guest time is
    // already in user).
    let busy = ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6] + ticks[7];
    Ok(busy / 100.0)
}

//! Waiting for a child with `wait4`, which reports the child's own resource usage (its peak
//! resident set): the one place xtask calls the C library directly.

use std::time::Duration;
use std::time::Instant;

/// How a measured child ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Reaped {
    /// The exit code; `None` when a signal ended it (or it was killed for running too long).
    pub(super) exit_code: Option<i32>,
    /// Its peak resident set in bytes (`ru_maxrss`).
    pub(super) peak_rss_bytes: u64,
    /// Whether it ran past the limit and was killed.
    pub(super) timed_out: bool,
}

/// How often a running child is polled.
const POLL: Duration = Duration::from_millis(2);

/// Waits for child `pid` (spawned in a process group of its own) until `deadline`, then kills
/// its group; reaps it and returns its status and peak RSS.
#[allow(unsafe_code)]
pub(super) fn wait_for(pid: u32, deadline: Instant) -> std::io::Result<Reaped> {
    let pid = libc::pid_t::try_from(pid).map_err(std::io::Error::other)?;
    let mut timed_out = false;
    loop {
        let mut status: libc::c_int = 0;
        // SAFETY: an all-zero `rusage` is a valid value of the plain C struct.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let flags = if timed_out { 0 } else { libc::WNOHANG };
        // SAFETY: `status` and `usage` are valid, exclusively borrowed out-parameters for the
        // duration of the call; `pid` is our own child, not yet reaped.
        let reaped = unsafe { libc::wait4(pid, &mut status, flags, &mut usage) };
        if reaped == pid {
            let exit_code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
            return Ok(Reaped {
                exit_code,
                peak_rss_bytes: u64::try_from(usage.ru_maxrss).unwrap_or_default() * 1024,
                timed_out,
            });
        }
        if reaped < 0 {
            let error = std::io::Error::last_os_error();
            if error.kind() != std::io::ErrorKind::Interrupted {
                return Err(error);
            }
            continue;
        }
        if Instant::now() >= deadline && !timed_out {
            // SAFETY: sends a signal to the child's own process group; no memory is involved.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
            timed_out = true;
            continue;
        }
        std::thread::sleep(POLL);
    }
}

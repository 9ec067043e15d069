//! The real `grundy serve` on loopback, stopped by a signal.

#![cfg(unix)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Starts the server on a free loopback port; returns it and its address,
/// read from the line it prints when it listens.
fn start() -> (Child, String) {
    let mut server = Command::new(assert_cmd::cargo::cargo_bin("grundy"))
        .args(["serve", "--host", "127.0.0.1", "--port", "0"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(server.stderr.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    let address = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_owned();
    (server, address)
}

/// Waits for `server` to exit, at most `limit`.
fn wait(server: &mut Child, limit: Duration) -> Option<std::process::ExitStatus> {
    let started = Instant::now();
    while started.elapsed() < limit {
        if let Some(status) = server.try_wait().unwrap() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = server.kill();
    None
}

fn signal(server: &Child, name: &str) {
    let sent = Command::new("kill")
        .args([name, &server.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
}

/// SIGTERM and SIGINT stop the server with exit code 0; with a client
/// holding a half-sent request (SIGTERM's case here) the stop waits a
/// bounded time for it (5 s), not for the client.
#[test]
fn sigterm_and_sigint_stop_the_server_gracefully() {
    for (name, half_sent) in [("-TERM", true), ("-INT", false)] {
        let (mut server, address) = start();
        let mut whole = TcpStream::connect(&address).unwrap();
        whole
            .write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .unwrap();
        let mut answer = String::new();
        whole.read_to_string(&mut answer).unwrap();
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        let mut half = TcpStream::connect(&address).unwrap();
        if half_sent {
            half.write_all(b"GET /api/ga").unwrap();
        }
        std::thread::sleep(Duration::from_millis(100));
        signal(&server, name);
        let status = wait(&mut server, Duration::from_secs(20));
        assert!(
            status.is_some_and(|s| s.success()),
            "{name}: the server did not stop cleanly: {status:?}"
        );
    }
}

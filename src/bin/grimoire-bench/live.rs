//! A `grimoire serve` started for a load run, the phones that follow it, and plain HTTP to it.

use super::*;

/// `grimoire serve` on a free port of 127.0.0.1: the process, the address it listens on, and the
/// path of the table's stream of updates.
pub(super) fn serving(
    exe: &Path,
    path: &str,
) -> Result<(std::process::Child, String, String), Failure> {
    let mut server = Command::new(exe)
        .args(["--db", path, "serve", "--listen", "127.0.0.1:0", "--json"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()?;
    let mut said = String::new();
    let read = match server.stdout.take() {
        Some(out) => BufReader::new(out)
            .read_line(&mut said)
            .map_err(Failure::from),
        None => Err("serve has no output".into()),
    };
    let link = read
        .and_then(|_| Ok(serde_json::from_str::<serde_json::Value>(&said)?))
        .and_then(|said| {
            Ok(said["link"]
                .as_str()
                .ok_or("serve printed no link")?
                .to_string())
        });
    let link = match link {
        Ok(link) => link,
        Err(e) => {
            let _ = server.kill();
            let _ = server.wait();
            return Err(e);
        }
    };
    let address = link
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap_or_default()
        .to_string();
    let updates = format!("{}updates", &link["http://".len() + address.len()..]);
    Ok((server, address, updates))
}

/// The heads one viewer saw, each with when it arrived.
pub(super) type Followed = Result<Vec<(u64, Instant)>, String>;

/// `count` viewers following the table's stream until the last head or `deadline` (see [`follow`]).
pub(super) fn viewing(
    count: usize,
    address: &str,
    updates: &str,
    last_file: &Path,
    deadline: Instant,
) -> Vec<std::thread::JoinHandle<Followed>> {
    (0..count)
        .map(|_| {
            let (address, updates, last_file) = (
                address.to_string(),
                updates.to_string(),
                last_file.to_path_buf(),
            );
            std::thread::spawn(move || follow(&address, &updates, &last_file, deadline))
        })
        .collect()
}

/// One phone: follows the stream of updates until the head the GM's last append made arrives (the
/// harness writes it to a file once known) or `deadline` passes; returns each head's seq with
/// when it arrived.
fn follow(address: &str, updates: &str, last_file: &Path, deadline: Instant) -> Followed {
    use std::io::Read;
    let mut stream = std::net::TcpStream::connect(address).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(Duration::from_millis(500)))
        .map_err(|e| e.to_string())?;
    write!(stream, "GET {updates} HTTP/1.1\r\nHost: {address}\r\n\r\n")
        .map_err(|e| e.to_string())?;
    let mut seen = Vec::new();
    let mut pending = String::new();
    let mut buffer = [0u8; 4096];
    while Instant::now() < deadline {
        match stream.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => pending.push_str(&String::from_utf8_lossy(&buffer[..n])),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(e) => return Err(e.to_string()),
        }
        let now = Instant::now();
        while let Some(end) = pending.find('\n') {
            let line: String = pending.drain(..=end).collect();
            if let Some(at) = line.find("\"mark\":\"") {
                let seq = line[at + 8..]
                    .split(':')
                    .next()
                    .and_then(|s| s.parse().ok());
                if let Some(seq) = seq {
                    seen.push((seq, now));
                }
            }
        }
        let last: Option<u64> = std::fs::read_to_string(last_file)
            .ok()
            .and_then(|t| t.trim().parse().ok());
        if last.is_some_and(|last| seen.iter().any(|(s, _)| *s >= last)) {
            break;
        }
    }
    Ok(seen)
}

/// One HTTP exchange on loopback: the status and the body (no chunked answers are asked for).
pub(super) fn http(address: &str, raw: &str) -> Result<(u16, String), String> {
    use std::io::Read;
    let mut stream = std::net::TcpStream::connect(address).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .map_err(|e| e.to_string())?;
    stream
        .write_all(raw.as_bytes())
        .map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    stream.read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    Ok((status, body.to_string()))
}

//! Real headless Chromium driven over its DevTools protocol: pages opened at a phone's or a
//! desktop's width, their script's results read back, screenshots taken. Every wait is bounded
//! (a page that never gets there fails the test, with what it was waiting for) and none is a
//! timing assertion: how quickly a page gets there is the benchmark's business.

use serde_json::{Value, json};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// The longest any one wait may take on a loaded machine before the test gives up (CI's machine
/// runs Chromium beside the rest of the suite on two cores).
const PATIENCE: Duration = Duration::from_secs(300);

/// Chromium to test with, or the reason there is none: the test then skips, unless
/// GRIMOIRE_REQUIRE_BROWSER says it may not (CI).
pub fn chromium_or_skip(test: &str) -> Option<PathBuf> {
    let found = super::report::chromium();
    if found.is_none() {
        assert!(
            std::env::var_os("GRIMOIRE_REQUIRE_BROWSER").is_none(),
            "GRIMOIRE_REQUIRE_BROWSER is set, but no Chromium was found"
        );
        eprintln!(
            "{test} skipped: no Chromium found (install it with `apt-get install --no-install-recommends chromium fonts-dejavu-core`, or point GRIMOIRE_CHROMIUM at one)"
        );
    }
    found
}

pub struct Browser {
    child: Child,
    socket: WebSocket<MaybeTlsStream<TcpStream>>,
    next_id: u64,
    _profile: tempfile::TempDir,
}

/// One page (a tab) in the browser.
pub struct Tab {
    session: String,
    target: Value,
}

impl Browser {
    pub fn start(chromium: &Path) -> Browser {
        let profile = tempfile::tempdir().expect("a profile folder");
        let child = Command::new(chromium)
            .args(super::report::HEADLESS)
            .args(["--hide-scrollbars", "--remote-debugging-port=0"])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("Chromium starts");
        // Chromium writes the port it took, and its browser endpoint, once it listens.
        let port_file = profile.path().join("DevToolsActivePort");
        let deadline = Instant::now() + PATIENCE;
        let (port, path) = loop {
            if let Ok(text) = std::fs::read_to_string(&port_file)
                && let [port, path] = text.lines().collect::<Vec<_>>()[..]
            {
                break (port.to_string(), path.to_string());
            }
            assert!(
                Instant::now() < deadline,
                "Chromium did not open its DevTools port"
            );
            std::thread::sleep(Duration::from_millis(50));
        };
        let (socket, _) = tungstenite::connect(format!("ws://127.0.0.1:{port}{path}"))
            .expect("the DevTools socket opens");
        if let MaybeTlsStream::Plain(stream) = socket.get_ref() {
            stream
                .set_read_timeout(Some(PATIENCE))
                .expect("a read timeout");
        }
        Browser {
            child,
            socket,
            next_id: 0,
            _profile: profile,
        }
    }

    /// Sends one DevTools command (to a tab's session, or to the browser) and returns its result.
    fn call(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
        self.answer(session, method, params)
            .unwrap_or_else(|error| panic!("{method} failed: {error}"))
    }

    /// Sends one DevTools command; its result, or the error Chromium gave.
    fn answer(
        &mut self,
        session: Option<&str>,
        method: &str,
        params: Value,
    ) -> Result<Value, Value> {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({ "id": id, "method": method, "params": params });
        if let Some(session) = session {
            message["sessionId"] = json!(session);
        }
        self.socket
            .send(Message::text(message.to_string()))
            .expect("a DevTools command is sent");
        loop {
            let message = self.socket.read().unwrap_or_else(|e| {
                panic!("Chromium did not answer {method} within {PATIENCE:?}: {e}")
            });
            let Message::Text(text) = message else {
                continue;
            };
            let answer: Value = serde_json::from_str(&text).expect("DevTools speaks JSON");
            if answer["id"] == json!(id) {
                return match answer.get("error") {
                    Some(error) => Err(error.clone()),
                    None => Ok(answer["result"].clone()),
                };
            }
        }
    }

    /// Opens `url` in a new tab framed `width` × `height` pixels (a phone's when `mobile`).
    pub fn open(&mut self, url: &str, width: u32, height: u32, mobile: bool) -> Tab {
        let target = self.call(None, "Target.createTarget", json!({ "url": "about:blank" }));
        let attached = self.call(
            None,
            "Target.attachToTarget",
            json!({ "targetId": target["targetId"], "flatten": true }),
        );
        let tab = Tab {
            session: attached["sessionId"]
                .as_str()
                .expect("a session")
                .to_string(),
            target: target["targetId"].clone(),
        };
        self.call(
            Some(&tab.session),
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile }),
        );
        self.call(Some(&tab.session), "Page.navigate", json!({ "url": url }));
        tab
    }

    /// Closes the tab, and with it its connections (a live page keeps one open for its updates,
    /// and a browser opens only a few at a time to one server).
    pub fn close(&mut self, tab: Tab) {
        self.call(
            None,
            "Target.closeTarget",
            json!({ "targetId": tab.target }),
        );
    }

    /// The value of `expression` in the tab (a promise is awaited); `null` while the page is
    /// still loading, or going on to another.
    pub fn eval(&mut self, tab: &Tab, expression: &str) -> Value {
        let answered = self.answer(
            Some(&tab.session),
            "Runtime.evaluate",
            json!({ "expression": expression, "returnByValue": true, "awaitPromise": true }),
        );
        match answered {
            Ok(result) => result["result"]["value"].clone(),
            // The page went on to another (a reload, a link followed) while it was asked: as
            // while it loads, there is no answer yet.
            Err(error)
                if ["navigated or closed", "context was destroyed"]
                    .iter()
                    .any(|gone| error.to_string().contains(gone)) =>
            {
                Value::Null
            }
            Err(error) => panic!("Runtime.evaluate failed: {error}"),
        }
    }

    /// Waits until `expression` holds in the tab; returns its value. Gives up after
    /// [`PATIENCE`], saying what it waited for.
    pub fn wait_for(&mut self, tab: &Tab, expression: &str, what: &str) -> Value {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let value = self.eval(tab, &format!("(function () {{ try {{ return {expression}; }} catch (e) {{ return null; }} }})()"));
            if !(value.is_null() || value == json!(false) || value == json!("")) {
                return value;
            }
            assert!(
                Instant::now() < deadline,
                "the page never showed {what} (waited for: {expression})"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// A screenshot of the tab's whole page, kept in the tests' artifacts folder as `name`.png;
    /// returns its path.
    pub fn screenshot(&mut self, tab: &Tab, name: &str) -> PathBuf {
        use base64::Engine;
        // A tab behind another draws no frames to capture: bring it to the front first.
        self.call(Some(&tab.session), "Page.bringToFront", json!({}));
        let shot = self.call(
            Some(&tab.session),
            "Page.captureScreenshot",
            json!({ "format": "png", "captureBeyondViewport": true }),
        );
        let png = base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().expect("the picture"))
            .expect("base64");
        let folder = Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
        std::fs::create_dir_all(&folder).expect("the screenshots' folder");
        let file = folder.join(format!("{name}.png"));
        std::fs::write(&file, png).expect("the screenshot is kept");
        file
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

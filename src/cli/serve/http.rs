//! The live view's HTTP side: every address starts with the table's key or a player's link, and
//! anything else (a wrong or old key, a revoked link, a path outside the app, a method other than
//! reading) gets the same short refusal, whatever it guessed. The only things sent are a device's
//! answer and its player's choice, short forms posted to its own link from its own page. Requests
//! are kept small (a head of at most 16 KiB, read within 10 seconds, no body but an answer's 256
//! bytes or a choice's 2 KiB), and connections
//! and work are shared out by link ([`super::doors`]), so no phone on the table's network, linked
//! or not, can starve the rest.

use super::doors::{Doors, Link, Queue};
use super::{DoorJob, ForDevice, Job, Key, Live, Made, Small, Standing, Wanted, pages};
use crate::ids::RequestId;
use axum::Router;
use axum::extract::{Path, RawQuery, Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{oneshot, watch};
use tower::Service;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::set_header::SetResponseHeaderLayer;

/// The longest address served (a log page's filters fit many times over).
const LONGEST_ADDRESS: usize = 2048;
/// The largest request head hyper reads (the smallest it allows).
const LARGEST_HEAD: usize = 16 * 1024;
/// How long a request's head may take to arrive.
const HEAD_WITHIN: Duration = Duration::from_secs(10);
/// The largest body taken: a device's answer (`request=N&contribution=` and 64 hex digits).
const LARGEST_ANSWER: usize = 256;
/// The largest choice taken: a character's name, two picks and whom one names, percent-encoded.
const LARGEST_CHOICE: usize = 2048;

/// The one refusal's words, whatever was guessed.
const NOTHING: &str = "Nothing here. Ask the GM for the table's link.\n";
const PLAIN: &str = "text/plain; charset=utf-8";

/// What the handlers share: the key in force, the live page, the players' links that stand (by
/// their tokens' SHA-256), the way to the campaign's thread, the open connections, and the
/// address (host and port) the links name, which a device's answer must come from.
pub struct Shared {
    pub key: watch::Receiver<Key>,
    pub live: watch::Receiver<Arc<Live>>,
    pub standing: watch::Receiver<Arc<Standing>>,
    pub jobs: Arc<Queue<Job>>,
    /// The players' links' small asks, answered on a thread of their own.
    pub door: Arc<Queue<DoorJob>>,
    pub doors: Arc<Doors>,
    pub authority: String,
}

impl Shared {
    fn opens(&self, given: &str) -> bool {
        self.key.borrow().opens(given)
    }

    /// Whether `token` is a player's link that stands, as the campaign last said: what is not
    /// never reaches the campaign's thread.
    fn stands(&self, token: &str) -> bool {
        self.standing
            .borrow()
            .contains(&crate::cli::link::token_hash(token))
    }

    /// The lane a player's token is served in: its own when it stands, or the one every other
    /// token shares (a link made since the campaign was last looked at is answered there).
    fn lane(&self, token: &str) -> Link {
        match self.stands(token) {
            true => Link::Player(token.to_string()),
            false => Link::Stranger,
        }
    }

    /// A player's link's small ask, answered by its door.
    async fn at_the_door(&self, token: String, wanted: Small) -> Response {
        let lane = self.lane(&token);
        self.waited(|answer| {
            self.door
                .push(
                    lane,
                    DoorJob {
                        token,
                        wanted,
                        answer,
                    },
                )
                .is_ok()
        })
        .await
    }

    /// Whether `link` opens anything now.
    fn opens_link(&self, link: &Link) -> bool {
        match link {
            Link::Table(key) => self.opens(key),
            Link::Player(token) => self.stands(token),
            Link::Stranger => false,
        }
    }

    /// Asks the campaign's thread for one of the table's pages, in the lane of the key given.
    async fn made(&self, key: String, wanted: Wanted) -> Response {
        self.asked(Link::Table(key), |answer| Job::Make(wanted, answer))
            .await
    }

    /// Asks the campaign's thread what a player's link wants (it checks the link itself).
    async fn for_device(&self, token: String, wanted: ForDevice) -> Response {
        self.asked(self.lane(&token), |answer| {
            Job::Device(token, wanted, answer)
        })
        .await
    }

    async fn asked(&self, link: Link, job: impl FnOnce(oneshot::Sender<Made>) -> Job) -> Response {
        self.waited(|answer| self.jobs.push(link, job(answer)).is_ok())
            .await
    }

    /// Puts a job with where its answer goes (`put` says whether its lane took it), and waits.
    async fn waited(&self, put: impl FnOnce(oneshot::Sender<Made>) -> bool) -> Response {
        let (answer, made) = oneshot::channel();
        if !put(answer) {
            let mut busy = answered(pages::trouble(
                503,
                "This link has many pages waiting already; this one was not made. The page tries again on the next update.",
            ));
            busy.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
            return busy;
        }
        match made.await {
            Ok(made) => answered(made),
            Err(_) => answered(pages::trouble(503, "The campaign is no longer served.")),
        }
    }
}

type Shares = Arc<Shared>;

/// Serves phones on `listener` until it fails; returns why.
pub async fn run(listener: std::net::TcpListener, shared: Shared) -> String {
    let listener = match tokio::net::TcpListener::from_std(listener) {
        Ok(listener) => listener,
        Err(e) => return e.to_string(),
    };
    let doors = Arc::clone(&shared.doors);
    close_what_no_longer_opens(&shared);
    let shared = Arc::new(shared);
    let app = router(Arc::clone(&shared));
    loop {
        let (socket, address) = match listener.accept().await {
            Ok(accepted) => accepted,
            // Out of file descriptors, or a connection reset before it was taken: wait a
            // moment and go on; the phones try again.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        // Full of the table's own connections: this one is closed at once.
        let Some((id, closed)) = doors.admit(address.ip()) else {
            continue;
        };
        let app = app.clone();
        let doors = Arc::clone(&doors);
        let shared = Arc::clone(&shared);
        tokio::spawn(async move {
            let opened = Arc::clone(&doors);
            let service =
                hyper::service::service_fn(move |request: Request<hyper::body::Incoming>| {
                    // As soon as a request names a link that opens, the connection is that
                    // link's: no crowd of connections without one can close it from then on.
                    if let Some(link) =
                        Link::of_path(request.uri().path()).filter(|link| shared.opens_link(link))
                    {
                        opened.opened(id, link);
                    }
                    app.clone().call(request)
                });
            // A connection that breaks off is the phone's business, not the server's.
            let serving = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEAD_WITHIN)
                .max_buf_size(LARGEST_HEAD)
                .serve_connection(TokioIo::new(socket), service);
            tokio::select! {
                _ = serving => {}
                // Closed to make room, or its link stopped opening anything.
                _ = closed => {}
            }
            doors.left(id);
        });
    }
}

/// Closes at once the connections of a table's link a new one replaced, and of a player's link
/// that was revoked or replaced: their streams of updates end with them.
fn close_what_no_longer_opens(shared: &Shared) {
    let mut keys = shared.key.clone();
    let mut standing = shared.standing.clone();
    let doors = Arc::clone(&shared.doors);
    tokio::spawn(async move {
        loop {
            tokio::select! {
                moved = keys.changed() => if moved.is_err() { return },
                moved = standing.changed() => if moved.is_err() { return },
            }
            let key = keys.borrow_and_update().clone();
            let standing = Arc::clone(&standing.borrow_and_update());
            doors.close_stale(|link| match link {
                Link::Table(given) => !key.opens(given),
                Link::Player(token) => !standing.contains(&crate::cli::link::token_hash(token)),
                Link::Stranger => false,
            });
        }
    });
}

fn router(shared: Shares) -> Router {
    Router::new()
        .route("/{key}", get(to_the_folder))
        .route("/{key}/", get(live_page))
        .route("/{key}/log", get(log_page))
        .route("/{key}/report", get(report_page))
        .route("/{key}/export.jsonl", get(export))
        .route("/{key}/updates", get(updates))
        .route("/p/{token}", get(to_the_players_folder))
        .route("/p/{token}/", get(player_page))
        .route("/p/{token}/rolls", get(player_rolls))
        .route("/p/{token}/answer", axum::routing::post(player_answer))
        .route("/p/{token}/choose", axum::routing::post(player_choice))
        .route("/p/{token}/log", get(player_log))
        .route("/p/{token}/report", get(player_report))
        .route("/p/{token}/export.jsonl", get(player_export))
        .route("/p/{token}/updates", get(player_updates))
        .fallback(nothing)
        .method_not_allowed_fallback(nothing)
        // Innermost first: no body past a choice's size is read, the limits refuse what no
        // page needs, and every response leaving, the refusals included, carries the guards.
        .layer(RequestBodyLimitLayer::new(LARGEST_CHOICE))
        .layer(middleware::from_fn_with_state(Arc::clone(&shared), limits))
        .layer(guard(header::CACHE_CONTROL, "no-store"))
        .layer(guard(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(guard(header::REFERRER_POLICY, "no-referrer"))
        .layer(guard(header::X_FRAME_OPTIONS, "DENY"))
        .layer(guard(
            header::CONTENT_SECURITY_POLICY,
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
        ))
        .with_state(shared)
}

/// What every answer carries, whatever made it (a page, a refusal, the fallback): never cached,
/// never sniffed, never framed, and the link (with its key) never sent on to another site; a page
/// may fetch only from its own server. Each is set over any a handler set.
fn guard(name: header::HeaderName, value: &'static str) -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::overriding(name, HeaderValue::from_static(value))
}

/// The one refusal, as the campaign's side makes it.
pub fn nothing_made() -> Made {
    Made {
        status: 404,
        media: PLAIN,
        body: Arc::new(NOTHING.to_string()),
    }
}

/// The one refusal: the same words for a wrong key, an old key and a path that is not served.
async fn nothing() -> Response {
    (StatusCode::NOT_FOUND, NOTHING).into_response()
}

/// Refuses what no page needs: a body, a method other than reading, an address too long, and an
/// answer that did not come from the player's page as served here.
async fn limits(State(s): State<Shares>, request: Request, next: Next) -> Response {
    let authority = s.authority.clone();
    let refused = |status: StatusCode, why: &'static str| (status, why).into_response();
    if request.uri().to_string().len() > LONGEST_ADDRESS {
        return refused(
            StatusCode::URI_TOO_LONG,
            "The address is too long to be one of this campaign's pages.\n",
        );
    }
    // A device's answer or choice is the one thing sent: a small form, to a player's link.
    let path = request.uri().path();
    let largest = match () {
        _ if path.ends_with("/answer") => LARGEST_ANSWER,
        _ => LARGEST_CHOICE,
    };
    let answering = *request.method() == Method::POST
        && path.starts_with("/p/")
        && (path.ends_with("/answer") || path.ends_with("/choose"));
    if !answering && !matches!(*request.method(), Method::GET | Method::HEAD) {
        return refused(
            StatusCode::METHOD_NOT_ALLOWED,
            "The live view is read only: nothing can be sent to it.\n",
        );
    }
    let headers = request.headers();
    let length = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|length| length.to_str().ok()?.parse::<usize>().ok());
    let has_body = headers.contains_key(header::TRANSFER_ENCODING)
        || headers
            .get(header::CONTENT_LENGTH)
            .is_some_and(|length| length != "0");
    if answering && !headers.contains_key(header::TRANSFER_ENCODING) && length.is_none() {
        return refused(
            StatusCode::LENGTH_REQUIRED,
            "An answer is a short form with its length given.\n",
        );
    }
    if answering
        && (headers.contains_key(header::TRANSFER_ENCODING) || length.is_some_and(|l| l > largest))
    {
        return refused(
            StatusCode::PAYLOAD_TOO_LARGE,
            "An answer is a short form with its length given.\n",
        );
    }
    if has_body && !answering {
        return refused(
            StatusCode::PAYLOAD_TOO_LARGE,
            "The live view is read only: a request carries no body.\n",
        );
    }
    if answering && let Some(why) = not_from_the_page(headers, &authority) {
        return refused(StatusCode::FORBIDDEN, why);
    }
    next.run(request).await
}

/// Why an answer's headers show it was not sent by the player's page from this server, if they
/// do: another site's page (its Origin), a name this server is not reached by (its Host, as a
/// site that re-points its own name here would send), or a body that is not the page's form.
fn not_from_the_page(headers: &axum::http::HeaderMap, authority: &str) -> Option<&'static str> {
    let text = |name| {
        headers
            .get(name)
            .and_then(|v: &HeaderValue| v.to_str().ok())
    };
    let ours = same_place(authority);
    if text(header::HOST).and_then(same_place) != ours {
        return Some("An answer is taken only at the address of the player's link.\n");
    }
    let origin = text(header::ORIGIN).and_then(|origin| {
        let (scheme, rest) = origin.split_once("://")?;
        scheme.eq_ignore_ascii_case("http").then_some(rest)
    });
    if origin.and_then(same_place) != ours {
        return Some("An answer is taken only from the player's page, as this server serves it.\n");
    }
    let form = text(header::CONTENT_TYPE).is_some_and(|media| {
        media.split(';').next().is_some_and(|m| {
            m.trim()
                .eq_ignore_ascii_case("application/x-www-form-urlencoded")
        })
    });
    if !form {
        return Some("An answer is a form (application/x-www-form-urlencoded).\n");
    }
    None
}

/// A host and port as a browser may spell them (any case, port 80 left out, an IPv6 address
/// written any way), in one spelling; `None` for what is not a host and port.
fn same_place(authority: &str) -> Option<(String, u16)> {
    let (host, port) = match authority.rsplit_once(':') {
        Some((host, port)) if !port.contains(']') => (host, port.parse().ok()?),
        _ => (authority, 80),
    };
    let host = match host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        Some(v6) => format!("[{}]", v6.parse::<std::net::Ipv6Addr>().ok()?),
        None => host.to_ascii_lowercase(),
    };
    (!host.is_empty()).then_some((host, port))
}

fn answered(made: Made) -> Response {
    let status = StatusCode::from_u16(made.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let body = Arc::try_unwrap(made.body).unwrap_or_else(|shared| (*shared).clone());
    (status, [(header::CONTENT_TYPE, made.media)], body).into_response()
}

async fn to_the_folder(State(s): State<Shares>, Path(key): Path<String>) -> Response {
    match s.opens(&key) {
        true => Redirect::to(&format!("/{key}/")).into_response(),
        false => nothing().await,
    }
}

async fn live_page(State(s): State<Shares>, Path(key): Path<String>) -> Response {
    if !s.opens(&key) {
        return nothing().await;
    }
    let page = s.live.borrow().page.clone();
    ([(header::CONTENT_TYPE, pages::HTML)], page).into_response()
}

async fn log_page(
    State(s): State<Shares>,
    Path(key): Path<String>,
    RawQuery(query): RawQuery,
) -> Response {
    if !s.opens(&key) {
        return nothing().await;
    }
    let filters = form_urlencoded::parse(query.unwrap_or_default().as_bytes())
        .into_owned()
        .collect();
    s.made(key, Wanted::Log(filters)).await
}

async fn report_page(State(s): State<Shares>, Path(key): Path<String>) -> Response {
    match s.opens(&key) {
        true => s.made(key, Wanted::Report).await,
        false => nothing().await,
    }
}

async fn export(State(s): State<Shares>, Path(key): Path<String>) -> Response {
    match s.opens(&key) {
        true => s.made(key, Wanted::Export).await,
        false => nothing().await,
    }
}

/// Server-sent events: the head now, then each new head as the log moves; a `closed` event, and
/// the end, once a new link replaces the one the phone holds.
async fn updates(State(s): State<Shares>, Path(key): Path<String>) -> Response {
    if !s.opens(&key) {
        return nothing().await;
    }
    let mut keys = s.key.clone();
    let mut live = s.live.clone();
    keys.borrow_and_update();
    live.borrow_and_update();
    let stream = futures_util::stream::unfold(
        (keys, live, key, Some(true)),
        |(mut keys, mut live, mine, state)| async move {
            let first = state?;
            if !first {
                tokio::select! {
                    moved = live.changed() => moved.ok()?,
                    rotated = keys.changed() => rotated.ok()?,
                }
            }
            if !keys.borrow_and_update().opens(&mine) {
                let closed = Event::default().event("closed").data("a new link");
                return Some((Ok::<_, Infallible>(closed), (keys, live, mine, None)));
            }
            let mark = pages::head_mark(live.borrow_and_update().head.as_ref());
            let event = Event::default()
                .event("head")
                .data(serde_json::json!({ "mark": mark }).to_string());
            Some((Ok(event), (keys, live, mine, Some(false))))
        },
    );
    Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
        .into_response()
}

/// A player's page: the live page with their device's part (C-5).
async fn player_page(State(s): State<Shares>, Path(token): Path<String>) -> Response {
    let live = Arc::clone(&s.live.borrow());
    s.at_the_door(token, Small::Page(live)).await
}

async fn player_rolls(State(s): State<Shares>, Path(token): Path<String>) -> Response {
    s.at_the_door(token, Small::Rolls).await
}

async fn player_log(
    State(s): State<Shares>,
    Path(token): Path<String>,
    RawQuery(query): RawQuery,
) -> Response {
    let filters = form_urlencoded::parse(query.unwrap_or_default().as_bytes())
        .into_owned()
        .collect();
    s.for_device(token, ForDevice::Public(Wanted::Log(filters)))
        .await
}

async fn player_report(State(s): State<Shares>, Path(token): Path<String>) -> Response {
    s.for_device(token, ForDevice::Public(Wanted::Report)).await
}

async fn player_export(State(s): State<Shares>, Path(token): Path<String>) -> Response {
    s.for_device(token, ForDevice::Public(Wanted::Export)).await
}

/// A player's link typed without its last slash: the same redirect the table's gets, for a link
/// that stands.
async fn to_the_players_folder(State(s): State<Shares>, Path(token): Path<String>) -> Response {
    let path = format!("/p/{token}/");
    let checked = s.at_the_door(token, Small::Check).await;
    match checked.status() {
        StatusCode::OK => Redirect::to(&path).into_response(),
        _ => checked,
    }
}

/// A refusal of what a player's page sent, as its script reads one: `{"refused": why}`.
fn refused(status: u16, why: &str) -> Response {
    answered(pages::json_made(
        status,
        &serde_json::json!({ "refused": why }),
    ))
}

/// The body of a form a player's page sent (`what`: "an answer", "a choice"), at most `largest`
/// bytes. It must arrive within the time a head may take: a stalled sender holds no connection
/// for long.
async fn short_form(
    body: axum::body::Body,
    largest: usize,
    what: &str,
) -> Result<axum::body::Bytes, Response> {
    let read = tokio::time::timeout(HEAD_WITHIN, axum::body::to_bytes(body, largest));
    match read.await {
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(_)) => Err(refused(413, &format!("{what} is a short form"))),
        Err(_) => Err(refused(408, &format!("{what} did not arrive in time"))),
    }
}

/// A device's answer: `request=N&contribution=HEX`, a form (C-5), each field once.
async fn player_answer(
    State(s): State<Shares>,
    Path(token): Path<String>,
    body: axum::body::Body,
) -> Response {
    let bytes = match short_form(body, LARGEST_ANSWER, "an answer").await {
        Ok(bytes) => bytes,
        Err(refusal) => return refusal,
    };
    let mut request = None;
    let mut contribution = None;
    let mut twice = false;
    for (name, value) in form_urlencoded::parse(&bytes) {
        let slot = match name.as_ref() {
            "request" => &mut request,
            "contribution" => &mut contribution,
            _ => continue,
        };
        twice |= slot.is_some();
        *slot = Some(value.into_owned());
    }
    // A request's number as grimoire writes it: digits, with no sign and no leading zero.
    let number = request
        .filter(|n| {
            n == "0"
                || (!n.starts_with('0') && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
        .and_then(|n| n.parse::<RequestId>().ok());
    // The device's bytes as its page sends them: lowercase hexadecimal, nothing else.
    let bytes = contribution.and_then(|text| {
        hex::decode(&text)
            .ok()
            .filter(|bytes| hex::encode(bytes) == text)
    });
    let (false, Some(request), Some(contribution)) = (twice, number, bytes) else {
        return refused(
            400,
            "an answer names its request (a number) and carries the device's bytes in lowercase hexadecimal, each once",
        );
    };
    s.for_device(
        token,
        ForDevice::Answer {
            request,
            contribution,
        },
    )
    .await
}

/// A player's choice (#47): `character=NAME&pick=WORD` (a second `pick` where two are picked,
/// `names=WHO` where a pick names someone), a form, each field but `pick` at most once.
async fn player_choice(
    State(s): State<Shares>,
    Path(token): Path<String>,
    body: axum::body::Body,
) -> Response {
    let bytes = match short_form(body, LARGEST_CHOICE, "a choice").await {
        Ok(bytes) => bytes,
        Err(refusal) => return refusal,
    };
    let (mut character, mut names, mut picks) = (None, None, Vec::new());
    let mut twice = false;
    for (name, value) in form_urlencoded::parse(&bytes) {
        let slot = match name.as_ref() {
            "character" => &mut character,
            "names" => &mut names,
            "pick" => {
                picks.push(value.into_owned());
                continue;
            }
            _ => continue,
        };
        twice |= slot.is_some();
        *slot = Some(value.into_owned());
    }
    // Bytes that are not UTF-8 would be read as U+FFFD and recorded so: refused instead.
    let garbled = [&character, &names]
        .into_iter()
        .flatten()
        .chain(&picks)
        .any(|value| value.contains('\u{FFFD}'));
    if garbled {
        return refused(400, "a choice's fields must be UTF-8 text");
    }
    picks.retain(|pick| !pick.trim().is_empty());
    let (false, Some(character), false) = (twice, character, picks.is_empty() || picks.len() > 2)
    else {
        return refused(
            400,
            "a choice names its character once, picks one or two options, and names whom it strikes at most once",
        );
    };
    s.for_device(
        token,
        ForDevice::Choose {
            character,
            picks,
            names,
        },
    )
    .await
}

/// A player's stream of updates: the head now, then each new head (the page then asks for its
/// rolls again, and finds out there if its link was revoked).
async fn player_updates(State(s): State<Shares>, Path(token): Path<String>) -> Response {
    let checked = s.at_the_door(token, Small::Check).await;
    if checked.status() != StatusCode::OK {
        return checked;
    }
    let mut live = s.live.clone();
    live.borrow_and_update();
    let stream = futures_util::stream::unfold((live, true), |(mut live, first)| async move {
        if !first {
            live.changed().await.ok()?;
        }
        let mark = pages::head_mark(live.borrow_and_update().head.as_ref());
        let event = Event::default()
            .event("head")
            .data(serde_json::json!({ "mark": mark }).to_string());
        Some((Ok::<_, Infallible>(event), (live, false)))
    });
    Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A browser spells the page's own address its way: any case, no port 80, an IPv6 address
    /// compressed; each is the same place, and another host or port is not.
    #[test]
    fn an_answer_from_the_page_is_known_however_the_browser_spells_its_address() {
        assert_eq!(same_place("LOCALHOST:8737"), same_place("localhost:8737"));
        assert_eq!(same_place("127.0.0.1"), same_place("127.0.0.1:80"));
        assert_eq!(
            same_place("[FD00:0:0:0:0:0:0:1]:8737"),
            same_place("[fd00::1]:8737")
        );
        assert_eq!(
            same_place("[::ffff:7f00:1]:9"),
            same_place("[::ffff:127.0.0.1]:9")
        );
        assert_ne!(same_place("127.0.0.1:8737"), same_place("127.0.0.1:8738"));
        assert_ne!(
            same_place("evil.example:8737"),
            same_place("127.0.0.1:8737")
        );
        assert_eq!(same_place(":8737"), None);
        let mut headers = axum::http::HeaderMap::new();
        headers.insert(header::HOST, HeaderValue::from_static("Gm-Laptop.local"));
        headers.insert(
            header::ORIGIN,
            HeaderValue::from_static("HTTP://gm-laptop.local"),
        );
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("Application/x-www-form-urlencoded; charset=UTF-8"),
        );
        assert_eq!(not_from_the_page(&headers, "gm-laptop.local:80"), None);
        assert!(not_from_the_page(&headers, "gm-laptop.local:8737").is_some());
    }
}

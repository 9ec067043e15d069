//! `grundy serve`: a local web playground (axum).
//!
//! One page (`assets/playground.html`, compiled in: no files are read at
//! run time, so nothing outside it can be served) and a small JSON API:
//!
//! - `GET /api/games`: the catalogue;
//! - `GET /api/analyze?game=G&to=N`: the report `grundy analyze --format
//!   json` gives (period, support, P-positions, ...), with `values` and `to`;
//! - `GET /api/plot?game=G&to=N&view=scatter|table|histogram&log=true`: the picture as SVG;
//! - `GET /api/count?game=G&to=N`: the report `grundy count --format json`
//!   gives, for the same options (`from`, `to` as `N` or a grid's `X,Y`,
//!   `heaps`, `order=ordered|ordered-distinct|unordered|distinct`, `mod`,
//!   `nim_sum`, `all`, `by_formula` (`true` for the formula `guess` finds,
//!   or a formula to check and count by), `max`; sizes written as on the command line,
//!   `1e12`, `2^40`), or for heaps whose values `histogram` gives, or the
//!   partitions of `partitions=N` into heaps (`parts` a set of sizes such
//!   as `1,3,5..9`, `distinct=true`, `heaps` for exactly that many); with
//!   `format=text`, the text `grundy count` prints (the page's count form);
//! - `GET /api/moves?game=G&to=N`: the winning moves of every heap of
//!   `from..=to`, the report `grundy moves --format json` gives
//!   (`by_value=true` for the counts alone, `format=text` for the text);
//! - `GET /api/sum?components=kayles:7 wythoff:3,5 (()())`: components of
//!   any kinds (whitespace between them; no files) played together, the
//!   document `grundy sum --format json` prints (`game` for components
//!   written as a bare position);
//! - `POST /api/position {game, heaps}`: a sum of heaps explained — each
//!   heap's options with their values and the mex, the nim-sum, the
//!   winning moves;
//! - `POST /api/move {game, heaps, component, to}`: play a move; the
//!   engine answers with a winning move when it has one.
//!
//! Every request is validated and bounded, so that no request can take
//! the server down or hold it:
//!
//! - games by the length of their specification, tables by size, sums by
//!   heap count and size;
//! - the work by a [`Cancel`] token with a [`DEADLINE`], checked inside
//!   the engine's loops (a table of `0.{62}` to 20,000 runs for minutes,
//!   a heap of `0.{2+}` at 200 has 4·10^12 options), and cancelled as soon as the client goes away: the
//!   handler's future is dropped then, and with it the token's guard;
//! - option listings by a [`Listing`] cap, applied while the options are
//!   visited, so a heap with 190 million options answers with the first
//!   thousand and `"truncated": true`;
//! - concurrency: at most [`MAX_COMPUTING`] requests compute at once; past
//!   them [`QUICK_SLOTS`] more compute within [`QUICK_DEADLINE`] (so a
//!   cheap request is answered while costly ones hold every slot), and one
//!   more is answered 503 at once rather than queued; one address has at
//!   most [`COMPUTING_PER_CLIENT`] requests computing;
//! - clients: a request's headers must arrive within 10 s of the
//!   connection being ready for them and its body within
//!   [`BODY_TIMEOUT`], at most [`MAX_BODY`] bytes; a write that makes no
//!   progress for [`WRITE_TIMEOUT`] (a client that sends requests and
//!   reads no answer) drops the connection; at most [`MAX_CONNECTIONS`]
//!   connections are open (below the descriptor limit), and
//!   [`CONNECTIONS_PER_CLIENT`] from one address: a connection past
//!   either is closed as it is accepted.
//!
//! Work runs on blocking threads, off the server's event loop. SIGINT
//! (Ctrl-C) and SIGTERM stop the server: it stops accepting, waits up to
//! 5 s for requests in flight, and exits.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, to_bytes};
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Query, Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use grundy::report::AnalysisReport;
use grundy::session::{
    Analysis, ByFormula, CountAnswer, CountEnd, CountQuery, Counted, Defines, HeapRules,
    HeapValues, Histogram, MovesAnswer, MovesGame, MovesQuery, Partitions, ScriptLimits, SumAnswer,
    SumItem, SumQuery, TupleBudget, Tuples, analyze_range,
};
use grundy::spec::{CATALOGUE, GameSpec, Question, parse_size};
use grundy::{Cancel, ExplainedSum, Listing, Nimber, TableSolver, ValueTable, explain_sum};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use crate::plot::{Picture, Style, View};

/// The page, with its script and styles inline.
const PAGE: &str = include_str!("../assets/playground.html");

/// The largest table `analyze` and `plot` compute.
pub const MAX_TO: u64 = 100_000;
/// The largest heap of a sum played.
pub const MAX_PLAY_HEAP: usize = 2_000;
/// The most heaps in a sum played.
pub const MAX_HEAPS: usize = 12;
/// The longest game specification accepted.
const MAX_SPEC: usize = 200;
/// How long one request may compute: its [`Cancel`] token's time limit.
pub const DEADLINE: Duration = Duration::from_secs(3);

/// The deadline this server keeps: [`DEADLINE`] unless `grundy serve
/// --deadline` set another when it started.
static KEPT_DEADLINE: std::sync::OnceLock<Duration> = std::sync::OnceLock::new();

fn deadline() -> Duration {
    quick_lane().unwrap_or_else(|| KEPT_DEADLINE.get().copied().unwrap_or(DEADLINE))
}

tokio::task_local! {
    /// Set while a request computes in the quick lane: its deadline.
    static QUICK_LANE: Duration;
}

std::thread_local! {
    /// [`QUICK_LANE`] on the blocking thread a request's work runs on.
    static QUICK_WORK: std::cell::Cell<Option<Duration>> = const { std::cell::Cell::new(None) };
}

/// The quick lane's deadline, when the request (or its work) is in it.
fn quick_lane() -> Option<Duration> {
    QUICK_LANE
        .try_with(|&quick| quick)
        .ok()
        .or_else(|| QUICK_WORK.with(std::cell::Cell::get))
}

/// Requests that may compute past [`MAX_COMPUTING`], each within
/// [`QUICK_DEADLINE`].
pub const QUICK_SLOTS: usize = 4;
/// How long a request in the quick lane may compute.
pub const QUICK_DEADLINE: Duration = Duration::from_millis(250);
/// How long a write to a client may wait for it to read.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// The most connections open at once (file descriptors are 1,024 by
/// default).
pub const MAX_CONNECTIONS: usize = 512;
/// The most connections open at once from one address.
pub const CONNECTIONS_PER_CLIENT: usize = 128;
/// The most requests one address may have computing at once, so that no
/// client holds every slot.
pub const COMPUTING_PER_CLIENT: usize = 4;
/// How long past the deadline a computation that has not stopped (work the
/// token cannot reach) is waited for before the request is answered anyway.
const GRACE: Duration = Duration::from_secs(2);
/// Memory one request's table may take.
const TABLE_MEMORY: u64 = 64 << 20;
/// The most requests computing at once; one more is answered 503.
pub const MAX_COMPUTING: usize = 8;
/// How long a request's body may take to arrive.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);
/// The largest request body: a script of [`MAX_SCRIPT`] characters, with
/// room for JSON's escapes, and the rest of a request.
pub const MAX_BODY: usize = 128 << 10;
/// How much of each heap's options a position lists: with at most
/// [`MAX_HEAPS`] heaps, 20,000 heaps left per heap bound the answer to a
/// few megabytes.
const LISTING: Listing = Listing {
    options: 1000,
    parts: 20_000,
    search: 1_000_000,
};

/// How long the server waits on its clients.
#[derive(Clone, Copy, Debug)]
struct Patience {
    /// For a request's headers, from the moment the connection is ready for
    /// them: a client that connects and sends nothing, or sends a byte a
    /// minute, is dropped after this.
    headers: Duration,
    /// For requests in flight once a stop signal came.
    shutdown: Duration,
    /// For a write to make progress: a client that does not read its
    /// answers is dropped after this.
    write: Duration,
    /// Connections open at once, in all and from one address.
    connections: usize,
    per_client: usize,
}

const PATIENCE: Patience = Patience {
    headers: Duration::from_secs(10),
    shutdown: Duration::from_secs(5),
    write: WRITE_TIMEOUT,
    connections: MAX_CONNECTIONS,
    per_client: CONNECTIONS_PER_CLIENT,
};

/// The routes of the playground.
pub fn router() -> Router {
    routes(MAX_COMPUTING)
}

/// The slots requests compute in: the main ones, and the quick lane's;
/// and how many each client address has computing.
struct Slots {
    main: Semaphore,
    quick: Semaphore,
    by_client: Arc<Tally>,
}

/// The address a connection comes from, put on each of its requests (none
/// for requests made in process, as the tests make them).
#[derive(Clone, Copy, Debug)]
struct ClientAddress(std::net::IpAddr);

/// The routes, with at most `computing` requests computing at once (and
/// [`QUICK_SLOTS`] quick ones).
fn routes(computing: usize) -> Router {
    let slots = Arc::new(Slots {
        main: Semaphore::new(computing),
        quick: Semaphore::new(QUICK_SLOTS),
        by_client: Default::default(),
    });
    let computed = Router::new()
        .route("/api/analyze", get(analyze_game))
        .route("/api/plot", get(plot))
        .route("/api/count", get(count))
        .route("/api/moves", get(moves))
        .route("/api/sum", get(sum))
        .route("/api/position", post(position))
        .route("/api/move", post(move_and_reply))
        .route_layer(middleware::from_fn_with_state(slots, admit));
    Router::new()
        .route("/", get(|| async { Html(PAGE) }))
        .route("/api/games", get(games))
        .merge(computed)
        .fallback(|| async {
            failure(StatusCode::NOT_FOUND, "no such page".into()).into_response()
        })
        .method_not_allowed_fallback(|| async {
            failure(
                StatusCode::METHOD_NOT_ALLOWED,
                "this page does not take that method (POST /api/position and /api/move, GET \
                 the others)"
                    .into(),
            )
            .into_response()
        })
        .layer(middleware::from_fn(read_body))
}

/// Lets a request compute when a slot is free, else in the quick lane
/// (within [`QUICK_DEADLINE`]: a cheap request is answered however busy
/// the server is); answers 503 when both are full, so that a flood of
/// costly requests is refused rather than queued, and when its client has
/// [`COMPUTING_PER_CLIENT`] requests computing, so that one client cannot
/// hold every slot.
async fn admit(State(slots): State<Arc<Slots>>, request: Request, next: Next) -> Response {
    let client = request
        .extensions()
        .get::<ClientAddress>()
        .map(|address| address.0);
    let Some(_computing) = slots
        .by_client
        .take(client, COMPUTING_PER_CLIENT, usize::MAX)
    else {
        return failure(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "you have {COMPUTING_PER_CLIENT} requests computing, the most one client may; \
                 wait for their answers"
            ),
        )
        .into_response();
    };
    if let Ok(_slot) = slots.main.try_acquire() {
        return next.run(request).await;
    }
    match slots.quick.try_acquire() {
        Ok(_slot) => QUICK_LANE.scope(QUICK_DEADLINE, next.run(request)).await,
        Err(_) => failure(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("the playground is busy ({MAX_COMPUTING} requests computing); try again"),
        )
        .into_response(),
    }
}

/// Reads a request's body, at most [`MAX_BODY`] bytes within
/// [`BODY_TIMEOUT`], before any handler sees it: a client that sends its
/// body slowly, or never, is answered 408 instead of holding the request.
async fn read_body(request: Request, next: Next) -> Response {
    let (parts, body) = request.into_parts();
    match tokio::time::timeout(BODY_TIMEOUT, to_bytes(body, MAX_BODY)).await {
        Ok(Ok(bytes)) => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        Ok(Err(_)) => failure(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the request body is over {} KiB or was cut off",
                MAX_BODY >> 10
            ),
        )
        .into_response(),
        Err(_) => failure(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the request body took more than {} s to arrive",
                BODY_TIMEOUT.as_secs()
            ),
        )
        .into_response(),
    }
}

/// Serves the playground on `address` until SIGINT (Ctrl-C) or SIGTERM,
/// each request's work stopped after `deadline`.
pub fn run(address: SocketAddr, deadline: Duration) -> Result<(), crate::Failure> {
    let _ = KEPT_DEADLINE.set(deadline);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(MAX_COMPUTING + QUICK_SLOTS)
        .enable_all()
        .build()?;
    let served = runtime.block_on(async move {
        let listener = TcpListener::bind(address)
            .await
            .map_err(|e| crate::Failure::Input(format!("cannot listen on {address}: {e}")))?;
        let bound = listener.local_addr()?;
        eprintln!("grundy playground on http://{bound}/ (Ctrl-C or SIGTERM stops)");
        serve(listener, router(), stop_signal(), PATIENCE).await;
        Ok(())
    });
    // Dropping the connections cancelled their work; what the tokens
    // cannot reach does not hold the exit.
    runtime.shutdown_timeout(GRACE);
    served
}

/// Resolves at SIGINT (Ctrl-C) or SIGTERM; at once if neither can be
/// listened for, as there would be no way to stop the server.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut terminate) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = terminate.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}

/// Serves `app` on `listener` until `stop` resolves; then stops accepting
/// and lets the requests in flight finish for at most `patience.shutdown`.
/// Each connection gets `patience.headers` for a request's headers.
async fn serve(
    listener: TcpListener,
    app: Router,
    stop: impl Future<Output = ()>,
    patience: Patience,
) {
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(patience.headers);
    let connections = GracefulShutdown::new();
    let open = Arc::new(Tally::default());
    let mut stop = std::pin::pin!(stop);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(_) => {
                    // Out of file descriptors, say: wait for some to close.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        // Past the caps the connection is closed at once (dropped).
        let Some(held) = open.take(Some(peer.ip()), patience.per_client, patience.connections)
        else {
            continue;
        };
        let stream = WriteTimeout::new(stream, patience.write);
        let tagged = app.clone().layer(axum::Extension(ClientAddress(peer.ip())));
        let service = TowerToHyperService::new(tagged);
        let connection = connections.watch(http.serve_connection(TokioIo::new(stream), service));
        tokio::spawn(async move {
            // A client that hangs up or sends garbage ends its connection,
            // not the server.
            let _ = connection.await;
            drop(held);
        });
    }
    drop(listener);
    tokio::select! {
        () = connections.shutdown() => {}
        () = tokio::time::sleep(patience.shutdown) => eprintln!(
            "stopping with requests still open after {} s",
            patience.shutdown.as_secs_f64()
        ),
    }
}

/// How many of something (connections open, requests computing) each
/// client address holds, in all and by address: a holding is counted until
/// its [`Holding`] is dropped. Requests made in process (the tests) have
/// no address: `None`.
#[derive(Default)]
struct Tally {
    by_address: std::sync::Mutex<std::collections::HashMap<Option<std::net::IpAddr>, usize>>,
}

/// One holding of a [`Tally`], counted until dropped.
struct Holding {
    tally: Arc<Tally>,
    address: Option<std::net::IpAddr>,
}

impl Tally {
    /// Counts one more for `address`, unless it holds `per_address`
    /// already or all addresses hold `in_all`.
    fn take(
        self: &Arc<Self>,
        address: Option<std::net::IpAddr>,
        per_address: usize,
        in_all: usize,
    ) -> Option<Holding> {
        let mut held = self
            .by_address
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let total: usize = held.values().sum();
        let mine = held.entry(address).or_default();
        if total >= in_all || *mine >= per_address {
            return None;
        }
        *mine += 1;
        Some(Holding {
            tally: Arc::clone(self),
            address,
        })
    }
}

impl Drop for Holding {
    fn drop(&mut self) {
        let mut held = self
            .tally
            .by_address
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(count) = held.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                held.remove(&self.address);
            }
        }
    }
}

/// A connection whose writes fail once one has waited `limit` for the
/// client to read: hyper has read timeouts (headers) but none for writes,
/// and a client that pipelines requests and never reads would hold its
/// connection forever.
struct WriteTimeout<S> {
    inner: S,
    limit: Duration,
    waiting: Option<std::pin::Pin<Box<tokio::time::Sleep>>>,
}

impl<S> WriteTimeout<S> {
    fn new(inner: S, limit: Duration) -> Self {
        WriteTimeout {
            inner,
            limit,
            waiting: None,
        }
    }

    /// `polled` (a write or flush), failing once it has been pending for
    /// the limit.
    fn within<T>(
        &mut self,
        cx: &mut std::task::Context<'_>,
        polled: std::task::Poll<std::io::Result<T>>,
    ) -> std::task::Poll<std::io::Result<T>> {
        use std::task::Poll;
        if polled.is_ready() {
            self.waiting = None;
            return polled;
        }
        let limit = self.limit;
        let waiting = self
            .waiting
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match waiting.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "the client read nothing for the write timeout",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<S: tokio::io::AsyncRead + Unpin> tokio::io::AsyncRead for WriteTimeout<S> {
    fn poll_read(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<S: tokio::io::AsyncWrite + Unpin> tokio::io::AsyncWrite for WriteTimeout<S> {
    fn poll_write(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        let polled = std::pin::Pin::new(&mut this.inner).poll_write(cx, buf);
        this.within(cx, polled)
    }

    fn poll_flush(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let polled = std::pin::Pin::new(&mut this.inner).poll_flush(cx);
        this.within(cx, polled)
    }

    fn poll_shutdown(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

/// An error answer: a status and one line saying what is wrong.
struct ApiError {
    status: StatusCode,
    message: String,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(json!({ "error": self.message }))).into_response()
    }
}

fn failure(status: StatusCode, message: String) -> ApiError {
    ApiError { status, message }
}

fn bad_request(message: impl Into<String>) -> ApiError {
    failure(StatusCode::BAD_REQUEST, message.into())
}

/// Runs `work` on a blocking thread under a [`Cancel`] token with the
/// [`DEADLINE`]. The token is cancelled when this future is dropped —
/// axum drops a handler's future when its client disconnects — so work
/// nobody waits for stops at the engine's next check. Work that does not
/// stop by the deadline and [`GRACE`] is answered for and left to end.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let token = Cancel::with_time_limit(deadline());
    let _cancel_when_dropped = token.cancel_on_drop();
    let running = token.clone();
    let quick = quick_lane();
    let job = tokio::task::spawn_blocking(move || {
        /// Clears the thread's lane however the work ends (a panic too):
        /// the thread serves other requests next.
        struct InLane;
        impl Drop for InLane {
            fn drop(&mut self) {
                QUICK_WORK.with(|lane| lane.set(None));
            }
        }
        QUICK_WORK.with(|lane| lane.set(quick));
        let _in_lane = InLane;
        running.run(work)
    });
    match tokio::time::timeout(deadline() + GRACE, job).await {
        Ok(Ok(result)) => result,
        Ok(Err(_)) => Err(failure(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the computation failed".into(),
        )),
        Err(_) => Err(too_long()),
    }
}

/// The answer to work past the [`DEADLINE`] (or, in the quick lane, past
/// [`QUICK_DEADLINE`]: the server is busy).
fn too_long() -> ApiError {
    if quick_lane().is_some() {
        return failure(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the playground is busy ({MAX_COMPUTING} requests computing): only requests that \
                 take under {} s are answered now; try again",
                QUICK_DEADLINE.as_secs_f64()
            ),
        );
    }
    failure(
        StatusCode::SERVICE_UNAVAILABLE,
        format!(
            "the computation took more than {} s, the playground's limit; ask for fewer or \
             smaller heaps",
            deadline().as_secs_f64()
        ),
    )
}

/// The longest script accepted.
const MAX_SCRIPT: usize = 20_000;

/// Rules a request types as a Rhai script: its `script` field, and its
/// `defines` field (`K=3, B=7`: values for the script's constants, its
/// parameters, as `--define` gives them on the command line).
#[derive(Clone, Copy)]
struct Script<'a> {
    source: Option<&'a str>,
    defines: Option<&'a str>,
}

impl<'a> Script<'a> {
    /// The script of a request's fields (none when `source` is blank).
    fn of(source: &'a Option<String>, defines: &'a Option<String>) -> Script<'a> {
        Script {
            source: source.as_deref().filter(|s| !s.trim().is_empty()),
            defines: defines.as_deref().filter(|d| !d.trim().is_empty()),
        }
    }
}

/// The game a request names: a built-in heap game, or rules typed as a
/// Rhai script (see [`script_rules`]). The library's spec parser decides
/// what the text means.
fn parse_game(spec: &str, script: Script<'_>, question: Question) -> Result<HeapRules, ApiError> {
    if let Some(rules) = script_rules(script)? {
        return Ok(rules);
    }
    HeapRules::from_spec(&parse_spec(spec)?, question, &ScriptLimits::default())
        .map_err(|e| bad_request(e.to_string()))
}

/// Rules typed as a Rhai script, when a request sends one: run with tight
/// limits (10^5 operations a call, 2 s, 10^5 positions), its constants
/// given the values of `defines`. The game is named `script`, with its
/// defines: `script(K=3)`.
fn script_rules(script: Script<'_>) -> Result<Option<HeapRules>, ApiError> {
    let Some(source) = script.source else {
        if script.defines.is_some() {
            return Err(bad_request(
                "defines are values for a script's constants: send the script too",
            ));
        }
        return Ok(None);
    };
    let defines: Defines = script
        .defines
        .unwrap_or_default()
        .parse()
        .map_err(|e: grundy::Error| bad_request(format!("{e} (parameter defines)")))?;
    if source.len() > MAX_SCRIPT {
        return Err(bad_request(format!(
            "a script is at most {MAX_SCRIPT} characters"
        )));
    }
    let limits = ScriptLimits {
        operations: 100_000,
        time: Duration::from_secs(2),
        positions: 100_000,
        size: 100_000,
        defines,
    };
    HeapRules::compile_script("script", source, limits)
        .map(Some)
        .map_err(|e| bad_request(e.to_string()))
}

/// A game specification from a request: at most [`MAX_SPEC`] characters,
/// and never a file (the server reads none).
fn parse_spec(spec: &str) -> Result<GameSpec, ApiError> {
    if spec.len() > MAX_SPEC {
        return Err(bad_request(format!(
            "a game is at most {MAX_SPEC} characters"
        )));
    }
    let spec = GameSpec::parse(spec).map_err(|e| bad_request(e.to_string()))?;
    if matches!(spec, GameSpec::Script(_)) {
        // The server reads no files: scripts come in the request.
        return Err(bad_request("send a script's text in the `script` field"));
    }
    Ok(spec)
}

/// `g(0..=to)` of `game`.
fn table(game: &HeapRules, to: u64) -> Result<ValueTable, ApiError> {
    match game
        .values(to, &bounded(), &mut |_| true)
        .map_err(engine_error)?
    {
        HeapValues::Finite(values) => Ok(values),
        HeapValues::Loopy(_) => Err(bad_request(
            "the game's heaps can grow, so play can cycle; the playground plays finite games",
        )),
    }
}

/// A table solver bounded in memory, on one thread (the request's token
/// is installed on it; the deadline bounds the time).
fn bounded() -> TableSolver {
    TableSolver::new()
        .with_memory_limit(TABLE_MEMORY)
        .with_threads(1)
}

fn engine_error(error: grundy::Error) -> ApiError {
    match error {
        grundy::Error::TimeLimit { .. } => too_long(),
        grundy::Error::Refused { knob, .. } => {
            bad_request(format!("{error} (parameter {})", parameter_for(knob)))
        }
        grundy::Error::Cancelled => failure(
            StatusCode::SERVICE_UNAVAILABLE,
            "the computation was cancelled".into(),
        ),
        other => bad_request(other.to_string()),
    }
}

/// The query parameters of a question's parameter the library refused
/// (the library names no front end's knobs).
fn parameter_for(knob: grundy::Knob) -> &'static str {
    use grundy::Knob;
    match knob {
        Knob::From => "from",
        Knob::To => "to",
        Knob::Heaps => "heaps",
        Knob::Order => "order",
        Knob::Modulus => "mod",
        Knob::NimSum => "nim_sum",
        Knob::All => "all",
        Knob::Formula => "by_formula",
        Knob::Max => "max",
        Knob::PastTheTable => "max, by_formula",
        Knob::Overwrite => "none: the playground writes no file",
        Knob::Output => "none: the playground writes no file",
        Knob::TimeLimit => "none: the playground's time limit is fixed",
        Knob::Rows => "by_value, or a shorter from/to",
        Knob::Partitions => "partitions, parts, distinct",
    }
}

async fn games() -> Json<Value> {
    Json(json!(CATALOGUE))
}

#[derive(Deserialize)]
struct TableQuery {
    game: String,
    to: Option<u64>,
    view: Option<String>,
    /// `/api/plot`: heaps on a logarithmic axis.
    log: Option<bool>,
    script: Option<String>,
    defines: Option<String>,
}

/// The largest table computed for a script (each heap is a script call).
const MAX_SCRIPT_TO: u64 = 2_000;

/// Values, P-positions and period of the game asked for, up to `to`.
/// The analysis `query` asks for: of heaps `0..=to`, or without `to`
/// adaptively until a theorem proves the period, as `grundy analyze` and
/// Python's `Game.analyze` do (within the [`DEADLINE`]).
fn compute(query: &TableQuery) -> Result<Analysis, ApiError> {
    let script = Script::of(&query.script, &query.defines);
    let game = parse_game(&query.game, script, Question::Analyze)?;
    let most = if game.as_script().is_some() {
        MAX_SCRIPT_TO
    } else {
        MAX_TO
    };
    if query.to.is_some_and(|to| to > most) {
        return Err(bad_request(format!(
            "the playground computes at most {most} heaps of this game"
        )));
    }
    analyze_range(
        &game,
        ValueTable::new(),
        query.to,
        None,
        &bounded(),
        &mut |_| true,
    )
    .map_err(engine_error)
}

/// The name a report gives the game `query` asks about: a script sent as
/// text is `script`.
fn query_name(query: &TableQuery) -> &str {
    match query.script.as_deref() {
        Some(text) if !text.trim().is_empty() => "script",
        _ => &query.game,
    }
}

/// `/api/analyze`: the analysis report of `grundy analyze --format json`
/// (whose `to` is the last heap) with every value of `0..=to`, computed or
/// read through the proven period.
#[derive(Serialize)]
struct TableAnalysis {
    #[serde(flatten)]
    report: AnalysisReport,
    values: Vec<Nimber>,
}

/// A query or body axum could not read, as the API's JSON error.
fn unreadable(status: StatusCode, text: String) -> Response {
    failure(status, text).into_response()
}

async fn analyze_game(query: Result<Query<TableQuery>, QueryRejection>) -> Response {
    let query = match query {
        Ok(Query(query)) => query,
        Err(e) => return unreadable(e.status(), e.body_text()),
    };
    let result = blocking(move || {
        let found = compute(&query)?;
        Ok(TableAnalysis {
            report: AnalysisReport::new(query_name(&query), &found),
            values: (0..=found.to).filter_map(|n| found.value(n)).collect(),
        })
    })
    .await;
    match result {
        Ok(body) => Json(body).into_response(),
        Err(error) => error.into_response(),
    }
}

async fn plot(query: Result<Query<TableQuery>, QueryRejection>) -> Response {
    let query = match query {
        Ok(Query(query)) => query,
        Err(e) => return unreadable(e.status(), e.body_text()),
    };
    let view = match query.view.as_deref() {
        None | Some("scatter") => View::Scatter,
        Some("table") => View::Table,
        Some("histogram") => View::Histogram,
        Some(other) => {
            return bad_request(format!("view '{other}' is not scatter, table or histogram"))
                .into_response();
        }
    };
    let log = query.log.unwrap_or(false);
    let result = blocking(move || {
        let found = compute(&query)?;
        let values = found.values_to_end().map_err(engine_error)?;
        let title = format!("{}, g(0..={})", found.game, found.to);
        let picture = Picture::of(title, &found, &values);
        let style = Style {
            view,
            columns: None,
            log,
            size: (900, 420),
        };
        crate::plot::svg(&picture, style)
            .map(|(svg, _)| svg)
            .map_err(|e| failure(StatusCode::INTERNAL_SERVER_ERROR, e))
    })
    .await;
    match result {
        Ok(svg) => ([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response(),
        Err(error) => error.into_response(),
    }
}

/// `/api/count`'s query: `grundy count`'s options, sizes as text.
#[derive(Deserialize)]
struct CountRequest {
    #[serde(default)]
    game: String,
    script: Option<String>,
    defines: Option<String>,
    /// `value count` lines or a table of values, instead of a game.
    histogram: Option<String>,
    from: Option<String>,
    to: Option<String>,
    heaps: Option<String>,
    order: Option<Tuples>,
    #[serde(rename = "mod")]
    modulus: Option<String>,
    nim_sum: Option<String>,
    #[serde(default)]
    all: bool,
    /// `true` (the formula `guess` finds), `false`, or a formula.
    by_formula: Option<String>,
    /// The most heaps tabulated or analysed, at most [`MAX_TO`].
    max: Option<String>,
    /// `json` (the default) or `text`: the report as `grundy count`
    /// prints it, for the page's count form.
    #[serde(default)]
    format: CountFormat,
    /// Count the partitions of this number into heaps of the game.
    partitions: Option<String>,
    /// The sizes a part may have (`1,3,5..9`, `squares`), with `partitions`.
    parts: Option<String>,
    /// Partitions into distinct parts, with `partitions`.
    #[serde(default)]
    distinct: bool,
}

/// How `/api/count` answers.
#[derive(Clone, Copy, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum CountFormat {
    #[default]
    Json,
    Text,
}

/// The most heaps of a position an exact count takes: its numbers have
/// up to 19 digits a heap, and `all` lists one for each nim-sum.
pub const MAX_EXACT_COUNT_HEAPS: u64 = 1000;
/// The operations a count of several heaps may take ([`TupleBudget`]'s
/// `work`): about a second, within the [`DEADLINE`].
const COUNT_WORK: u64 = 200_000_000;

/// The count `request` asks for, by the library's [`grundy::session::count`].
fn counted(request: &CountRequest) -> Result<CountAnswer, ApiError> {
    let invalid = engine_error;
    let size = |field: &Option<String>| {
        field
            .as_deref()
            .map(parse_size)
            .transpose()
            .map_err(invalid)
    };
    let query = CountQuery {
        from: size(&request.from)?.unwrap_or(1),
        to: request
            .to
            .as_deref()
            .map(CountEnd::parse)
            .transpose()
            .map_err(invalid)?,
        heaps: size(&request.heaps)?,
        order: request.order.unwrap_or(Tuples::Ordered),
        modulus: size(&request.modulus)?,
        nim_sum: size(&request.nim_sum)?,
        all: request.all,
        by_formula: match request.by_formula.as_deref().map(str::trim) {
            None | Some("" | "false") => ByFormula::No,
            Some("true") => ByFormula::Guessed,
            Some(formula) => ByFormula::Given(formula.parse().map_err(invalid)?),
        },
        max: match size(&request.max)? {
            Some(max) if max > MAX_TO => {
                return Err(bad_request(format!(
                    "the playground computes at most {MAX_TO} heaps"
                )));
            }
            max => max,
        },
        budget: TupleBudget {
            work: COUNT_WORK,
            ..TupleBudget::default()
        },
        partitions: Partitions::from_options(
            size(&request.partitions)?,
            request.parts.as_deref(),
            request.distinct,
        )
        .map_err(invalid)?,
    };
    if query.modulus.is_none() && query.heaps.is_some_and(|k| k > MAX_EXACT_COUNT_HEAPS) {
        return Err(bad_request(format!(
            "the playground counts at most {MAX_EXACT_COUNT_HEAPS} heaps exactly; count modulo m (mod=1000000007) for more"
        )));
    }
    let script = Script::of(&request.script, &request.defines);
    let (name, game) = match (&request.histogram, script_rules(script)?) {
        (Some(text), _) => (
            "histogram".to_owned(),
            Counted::Given(Histogram::parse(text).map_err(invalid)?),
        ),
        (None, Some(rules)) => (rules.to_string(), Counted::Heaps(rules)),
        (None, None) => {
            let spec = parse_spec(&request.game)?;
            let game = Counted::from_spec(&spec, &ScriptLimits::default()).map_err(invalid)?;
            (request.game.clone(), game)
        }
    };
    grundy::session::count(&name, &game, &query, &bounded(), &mut |_| true).map_err(engine_error)
}

async fn count(query: Result<Query<CountRequest>, QueryRejection>) -> Response {
    let request = match query {
        Ok(Query(request)) => request,
        Err(e) => return unreadable(e.status(), e.body_text()),
    };
    let format = request.format;
    match blocking(move || counted(&request)).await {
        Ok(answer) if format == CountFormat::Text => text_response(&answer),
        Ok(answer) => Json(answer).into_response(),
        Err(error) => error.into_response(),
    }
}

/// The text the CLI prints for `report`: the one rendering, output.rs's.
fn text_response(report: &impl crate::output::Render) -> Response {
    let mut text = Vec::new();
    match report.text(&mut text) {
        Ok(()) => ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response(),
        Err(e) => failure(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    }
}

/// `/api/moves?game=kayles&to=100`: the winning moves of every heap of
/// `from..=to` (from 0), as `grundy moves --format json` prints them;
/// `by_value=true` counts them by value only (through a proven period for
/// long ranges); `position=[3,4];[5,5]` lists every position of a script
/// reachable from those, in place of `to`; `format=text` gives the CLI's
/// text.
#[derive(Deserialize)]
struct MovesRequest {
    #[serde(default)]
    game: String,
    script: Option<String>,
    defines: Option<String>,
    from: Option<String>,
    to: Option<String>,
    position: Option<String>,
    #[serde(default)]
    by_value: bool,
    #[serde(default)]
    format: CountFormat,
}

/// The most heaps or positions `/api/moves` lists one by one.
const MAX_MOVE_ROWS: usize = 10_000;

fn moves_of(request: &MovesRequest) -> Result<MovesAnswer, ApiError> {
    let size = |text: &Option<String>| {
        text.as_deref()
            .map(|t| parse_size(t).map_err(engine_error))
            .transpose()
    };
    let positions: Vec<String> = request
        .position
        .as_deref()
        .unwrap_or("")
        .split(';')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(str::to_owned)
        .collect();
    let script = Script::of(&request.script, &request.defines);
    let game = match script_rules(script)? {
        Some(rules) => MovesGame::Heaps(rules),
        None => MovesGame::from_spec(&parse_spec(&request.game)?, &ScriptLimits::default())
            .map_err(engine_error)?,
    };
    let name = match &game {
        MovesGame::Heaps(rules) if script.source.is_some() => rules.to_string(),
        _ => request.game.clone(),
    };
    let query = MovesQuery {
        from: size(&request.from)?.unwrap_or(0),
        to: size(&request.to)?,
        positions: &positions,
        rows: !request.by_value,
        max_rows: Some(MAX_MOVE_ROWS),
        solver: &bounded(),
        max_options: LISTING.search,
        work_limit: COUNT_WORK,
    };
    grundy::session::moves(&name, &game, &query, &mut |_, _| true).map_err(engine_error)
}

async fn moves(query: Result<Query<MovesRequest>, QueryRejection>) -> Response {
    let request = match query {
        Ok(Query(request)) => request,
        Err(e) => return unreadable(e.status(), e.body_text()),
    };
    let format = request.format;
    match blocking(move || moves_of(&request)).await {
        Ok(report) if format == CountFormat::Text => text_response(&report),
        Ok(report) => Json(report).into_response(),
        Err(error) => error.into_response(),
    }
}

/// `/api/sum?components=kayles:7 wythoff:3,5 ruler:3,4`: components of
/// any kinds (whitespace between them; files are not read) played
/// together, as `grundy sum --format json` prints them; `game` is the game
/// of components written as a bare position.
#[derive(Deserialize)]
struct SumRequest {
    components: String,
    #[serde(default)]
    game: Option<String>,
}

fn summed(request: &SumRequest) -> Result<Value, ApiError> {
    let written: Vec<&str> = request.components.split_whitespace().collect();
    if written.len() > MAX_HEAPS {
        return Err(bad_request(format!(
            "the playground plays at most {MAX_HEAPS} components together"
        )));
    }
    if written
        .iter()
        .chain(&request.game.as_deref())
        .any(|w| w.len() > MAX_SPEC)
    {
        return Err(bad_request(format!(
            "a component is at most {MAX_SPEC} characters"
        )));
    }
    let query = SumQuery {
        game: request.game.as_deref(),
        items: written
            .iter()
            .map(|w| SumItem::Written((*w).to_owned()))
            .collect(),
        script: ScriptLimits::default(),
        solver: &bounded(),
        max_options: LISTING.search,
        work_limit: grundy::session::DEFAULT_WORK,
        files: false,
    };
    let answer = grundy::session::sum(&query, &mut |_, _| true).map_err(engine_error)?;
    let document = match answer {
        SumAnswer::Heaps(report) => serde_json::to_value(report),
        SumAnswer::Pairs(report) => serde_json::to_value(report),
        SumAnswer::Parts(report) => serde_json::to_value(report),
    };
    document.map_err(|e| failure(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))
}

async fn sum(query: Result<Query<SumRequest>, QueryRejection>) -> Response {
    let request = match query {
        Ok(Query(request)) => request,
        Err(e) => return unreadable(e.status(), e.body_text()),
    };
    match blocking(move || summed(&request)).await {
        Ok(answer) => Json(answer).into_response(),
        Err(error) => error.into_response(),
    }
}

#[derive(Deserialize)]
struct PositionRequest {
    game: String,
    #[serde(default)]
    script: Option<String>,
    #[serde(default)]
    defines: Option<String>,
    heaps: Vec<usize>,
}

#[derive(Deserialize)]
struct MoveRequest {
    game: String,
    #[serde(default)]
    script: Option<String>,
    #[serde(default)]
    defines: Option<String>,
    heaps: Vec<usize>,
    component: usize,
    to: Vec<usize>,
}

fn check_heaps(heaps: &[usize]) -> Result<(), ApiError> {
    if heaps.len() > MAX_HEAPS {
        return Err(bad_request(format!("at most {MAX_HEAPS} heaps")));
    }
    if let Some(h) = heaps.iter().find(|&&h| h > MAX_PLAY_HEAP) {
        return Err(bad_request(format!(
            "heap {h}: the playground plays heaps up to {MAX_PLAY_HEAP}"
        )));
    }
    Ok(())
}

/// The game and its value table for heaps `heaps`.
fn prepare(
    game: &str,
    script: Script<'_>,
    heaps: &[usize],
) -> Result<(HeapRules, ValueTable), ApiError> {
    let game = parse_game(game, script, Question::Sum)?;
    check_heaps(heaps)?;
    let values = table(&game, heaps.iter().copied().max().unwrap_or(0) as u64)?;
    Ok((game, values))
}

/// The sum of `heaps` explained (options up to [`LISTING`]'s caps, values,
/// winning moves), by the library; a script's own error is reported as
/// itself.
fn explain(
    game: &HeapRules,
    values: &ValueTable,
    heaps: &[usize],
) -> Result<ExplainedSum, ApiError> {
    game.checked(explain_sum(game, values, heaps, &LISTING))
        .map_err(engine_error)
}

async fn position(request: Result<Json<PositionRequest>, JsonRejection>) -> Response {
    let request = match request {
        Ok(Json(request)) => request,
        Err(e) => return unreadable(e.status(), e.body_text()),
    };
    let result = blocking(move || {
        let script = Script::of(&request.script, &request.defines);
        let (game, table) = prepare(&request.game, script, &request.heaps)?;
        explain(&game, &table, &request.heaps)
    })
    .await;
    match result {
        Ok(explained) => Json(explained).into_response(),
        Err(error) => error.into_response(),
    }
}

async fn move_and_reply(request: Result<Json<MoveRequest>, JsonRejection>) -> Response {
    let request = match request {
        Ok(Json(request)) => request,
        Err(e) => return unreadable(e.status(), e.body_text()),
    };
    let result = blocking(move || {
        let script = Script::of(&request.script, &request.defines);
        let (game, table) = prepare(&request.game, script, &request.heaps)?;
        let played = grundy::play_move(
            &game,
            &table,
            &request.heaps,
            request.component,
            &request.to,
            &LISTING,
        );
        game.checked(played).map_err(engine_error)
    })
    .await;
    match result {
        Ok(body) => Json(body).into_response(),
        Err(error) => error.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::{Body, to_bytes};
    use axum::http::Request;
    use tower::ServiceExt;

    /// Sends one request to the router (no network) and returns the status,
    /// content type and body.
    fn send(request: Request<Body>) -> (StatusCode, String, String) {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let response = router().oneshot(request).await.unwrap();
            let status = response.status();
            let kind = response
                .headers()
                .get(header::CONTENT_TYPE)
                .map(|v| v.to_str().unwrap().to_owned())
                .unwrap_or_default();
            let body = to_bytes(response.into_body(), 1 << 24).await.unwrap();
            (status, kind, String::from_utf8(body.to_vec()).unwrap())
        })
    }

    fn get(path: &str) -> (StatusCode, String, String) {
        send(Request::get(path).body(Body::empty()).unwrap())
    }

    fn post(path: &str, body: Value) -> (StatusCode, Value) {
        let (status, _, text) = send(
            Request::post(path)
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(body.to_string()))
                .unwrap(),
        );
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    #[test]
    fn the_page_and_the_analysis() {
        let (status, kind, page) = get("/");
        assert_eq!(status, StatusCode::OK);
        assert!(kind.starts_with("text/html") && page.contains("grundy playground"));
        let (status, _, body) = get("/api/analyze?game=kayles&to=200");
        assert_eq!(status, StatusCode::OK);
        let found: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(found["values"].as_array().unwrap().len(), 201);
        assert_eq!(found["period"], 12);
        assert_eq!(found["proven"], true);
        assert_eq!(found["to"], 200);
        let (status, kind, svg) = get("/api/plot?game=kayles&to=100&view=table");
        assert_eq!(status, StatusCode::OK);
        assert!(kind == "image/svg+xml" && svg.starts_with("<svg"));
        // The histogram and a logarithmic axis, as the command draws them.
        let (status, _, svg) = get("/api/plot?game=0.16&to=5000&view=histogram");
        assert_eq!(status, StatusCode::OK);
        assert!(svg.contains("heaps of each value"));
        let (status, _, svg) = get("/api/plot?game=0.16&to=5000&log=true");
        assert_eq!(status, StatusCode::OK);
        assert!(svg.contains("rare values (mask 30)"));
    }

    #[test]
    fn requests_are_validated_and_bounded() {
        for (path, needle) in [
            ("/api/analyze?game=chess", "unknown game"),
            (
                "/api/analyze?game=kayles&to=1000000",
                "at most 100000 heaps",
            ),
            (
                "/api/plot?game=kayles&view=pie",
                "not scatter, table or histogram",
            ),
            ("/api/analyze?to=5", ""),
        ] {
            let (status, _, body) = get(path);
            assert!(status.is_client_error(), "{path}: {status}");
            assert!(body.contains(needle), "{path}: {body}");
        }
        let long = format!("/api/analyze?game={}", "7".repeat(300));
        assert_eq!(get(&long).0, StatusCode::BAD_REQUEST);
        // Nothing but the page and the API is served.
        for path in [
            "/../Cargo.toml",
            "/assets/playground.html",
            "/etc/passwd",
            "/src/serve.rs",
        ] {
            assert_eq!(get(path).0, StatusCode::NOT_FOUND, "{path}");
        }
        let (status, body) = post("/api/position", json!({ "game": "nim", "heaps": [5000] }));
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(body["error"].as_str().unwrap().contains("up to 2000"));
        let (status, _) = post("/api/position", json!({ "game": "nim", "heaps": "three" }));
        assert!(status.is_client_error());
    }

    #[test]
    fn positions_are_explained_with_every_winning_move() {
        let (status, state) = post(
            "/api/position",
            json!({ "game": "nim", "heaps": [3, 5, 7] }),
        );
        assert_eq!(status, StatusCode::OK);
        assert_eq!(state["nim_sum"], 1);
        assert_eq!(state["winner"], "first");
        assert_eq!(state["winning_moves"].as_array().unwrap().len(), 3);
        assert_eq!(
            state["components"][0]["options"].as_array().unwrap().len(),
            3
        );
    }

    #[test]
    fn a_scripted_kayles_is_explained_and_analyzed_as_the_built_in_one() {
        let source = include_str!("../../../examples/kayles.rhai");
        let heaps = json!([4, 7, 9]);
        let (_, scripted) = post(
            "/api/position",
            json!({ "game": "", "script": source, "heaps": heaps }),
        );
        let (_, built_in) = post("/api/position", json!({ "game": "kayles", "heaps": heaps }));
        assert_eq!(scripted, built_in);
        let (status, _, body) = get("/api/analyze?game=kayles&to=300");
        assert_eq!(status, StatusCode::OK);
        let analysis: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(analysis["support"], "theorem");
        // The web's analysis is the CLI's report, with the values added.
        let cli: Value =
            serde_json::to_value(AnalysisReport::new("kayles", &compute_kayles(300))).unwrap();
        for (field, value) in cli.as_object().unwrap() {
            assert_eq!(&analysis[field], value, "{field}");
        }
        // The server reads no files: a script path is refused.
        let (status, _, _) = get("/api/analyze?game=examples/kayles.rhai&to=30");
        assert_eq!(status, StatusCode::BAD_REQUEST);
        // Kinds that are not heap games say so.
        let (status, _, body) = get("/api/analyze?game=wythoff&to=30");
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(body.contains("pairs"), "{body}");
    }

    fn compute_kayles(to: u64) -> Analysis {
        compute(&super::TableQuery {
            game: "kayles".into(),
            to: Some(to),
            view: None,
            log: None,
            script: None,
            defines: None,
        })
        .unwrap_or_else(|_| panic!("kayles to {to} is analyzed"))
    }

    /// The count `path` answers, as JSON.
    fn counted(path: &str) -> Value {
        let (status, _, body) = get(path);
        assert_eq!(status, StatusCode::OK, "{path}: {body}");
        serde_json::from_str(&body).unwrap()
    }

    /// Positions of `k` heaps from `values`, enumerated: (all, P-positions)
    /// for ordered tuples, multisets and sets.
    fn enumerated(values: &[u32], k: usize) -> [(u64, u64); 3] {
        let mut found = [(0, 0); 3];
        let mut tuple = vec![0usize; k];
        loop {
            let nim_sum = tuple.iter().fold(0, |s, &i| s ^ values[i]);
            let rising = tuple.windows(2).all(|w| w[0] <= w[1]);
            let strictly = tuple.windows(2).all(|w| w[0] < w[1]);
            for (slot, counted) in [true, rising, strictly].into_iter().enumerate() {
                if counted {
                    found[slot].0 += 1;
                    found[slot].1 += u64::from(nim_sum == 0);
                }
            }
            let Some(last) = tuple.iter().rposition(|&i| i + 1 < values.len()) else {
                return found;
            };
            tuple[last] += 1;
            tuple[last + 1..].fill(0);
        }
    }

    /// `/api/sum` answers what the library's `session::sum` does, for
    /// components of any kinds; files are refused.
    #[test]
    fn sums_of_any_kinds_are_answered_and_files_refused() {
        let asked = "kayles:3 wythoff:1,3 (()()) ruler:3,4,6 ruler*ruler:2,3+4,1";
        let found = counted(&format!("/api/sum?components={}", encode(asked)));
        let query = grundy::session::SumQuery {
            game: None,
            items: asked
                .split(' ')
                .map(|w| grundy::session::SumItem::Written(w.into()))
                .collect(),
            script: ScriptLimits::default(),
            solver: &bounded(),
            max_options: LISTING.search,
            work_limit: grundy::session::DEFAULT_WORK,
            files: false,
        };
        let SumAnswer::Parts(report) = grundy::session::sum(&query, &mut |_, _| true).unwrap()
        else {
            panic!("a mix of kinds")
        };
        assert_eq!(found, serde_json::to_value(report).unwrap());
        assert_eq!(found["winner"], "first");
        let heaps = counted("/api/sum?game=kayles&components=5%20nim:4%202");
        assert_eq!(heaps["nim_sum"], 2);
        assert_eq!(heaps["winning_moves"][0]["component"], 2);
        for refused in ["graph:/etc/hosts:a", "maze:/etc/hosts", "x.rhai:3"] {
            let (status, _, body) = get(&format!("/api/sum?components={}", encode(refused)));
            assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}: {body}");
        }
        let many = vec!["nim:1"; MAX_HEAPS + 1].join("%20");
        let (status, _, body) = get(&format!("/api/sum?components={many}"));
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    }

    /// `/api/moves` answers the table `grundy moves` gives: each heap's
    /// winning moves, the counts by value, a long range through the period,
    /// and refuses a long listing.
    #[test]
    fn winning_move_tables_are_answered() {
        let table = counted("/api/moves?game=sub(1,3,4)&to=3");
        let rows = table["heaps"].as_array().unwrap();
        assert_eq!(rows.len(), 4);
        assert_eq!(rows[3]["winning_moves"], 2);
        assert_eq!(rows[3]["fewest_taken"], 1);
        assert_eq!(rows[3]["most_taken"], 3);
        let far = counted("/api/moves?game=0.137&from=1&to=1e12&by_value=true");
        assert_eq!(far["heap_count"], "1000000000000");
        assert_eq!(far["through_period"]["period"], 34);
        let script =
            counted("/api/moves?to=5&script=fn%20options(n)%20%7B%20%5Bn%20-%201%5D%20%7D");
        assert_eq!(script["game"], "script");
        let (status, _, body) = get("/api/moves?game=kayles&to=1e6");
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(body.contains("by_value"), "{body}");
        let (status, _, text) = get("/api/moves?game=kayles&to=4&format=text");
        assert_eq!(status, StatusCode::OK);
        assert!(text.starts_with("kayles, heaps 0..=4"), "{text}");
        let pairs = counted("/api/moves?game=wythoff&to=2");
        assert_eq!(pairs["positions"][8]["winning_moves"], 3);
        let (status, _, body) = get("/api/moves?game=wythoff&to=1000");
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        // A script's tuples: two-heap Nim, every position reachable from
        // [1,2], the P-positions (equal heaps) without a winning move.
        let nim = "fn options(p) { let out = []; \
                   for k in 1..=p[0] { out.push([p[0] - k, p[1]]); } \
                   for k in 1..=p[1] { out.push([p[0], p[1] - k]); } out }";
        let tuples = counted(&format!(
            "/api/moves?script={}&position={}",
            encode(nim),
            encode("[1,2]")
        ));
        let rows = tuples["positions"].as_array().unwrap();
        assert_eq!(rows.len(), 6, "{tuples}");
        assert_eq!(rows[5]["position"], "[1, 2]");
        assert_eq!(rows[5]["moves"], serde_json::json!([["[1, 1]"]]));
        assert_eq!(rows[4]["position"], "[1, 1]");
        assert_eq!(rows[4]["winning_moves"], 0);
        // Coins: a lone head on each coin of a grid.
        let grid = counted("/api/moves?game=turtles*turtles&to=2");
        assert_eq!(grid["coins"][3]["winning_moves"], "1");
        assert_eq!(grid["coin_count"], "4");
    }

    /// `/api/count` answers the counts `grundy count` gives, with the same
    /// report types: heaps by value, positions of several heaps in every
    /// order (against enumeration), modulo m, given histograms and grids of
    /// coins (against every set of heads).
    #[test]
    fn counts_are_answered_and_match_enumeration() {
        let kayles: grundy::HeapGame = "kayles".parse().unwrap();
        let table = TableSolver::new().values(&kayles, 12).unwrap();
        let values: Vec<u32> = table.iter().skip(2).map(|v| v.get()).collect();
        let heaps = counted("/api/count?game=kayles&from=2&to=12");
        assert_eq!(heaps["heaps"], "11");
        let zeros = values.iter().filter(|&&v| v == 0).count();
        assert_eq!(heaps["p_positions"], zeros.to_string());
        for k in 1..=3 {
            let [ordered, unordered, distinct] = enumerated(&values, k);
            for (order, (all, p)) in [
                ("ordered", ordered),
                ("unordered", unordered),
                ("distinct", distinct),
            ] {
                let path = format!("/api/count?game=kayles&from=2&to=12&heaps={k}&order={order}");
                let found = counted(&path);
                assert_eq!(found["total"], all.to_string(), "{path}");
                assert_eq!(found["p_positions"], p.to_string(), "{path}");
                assert_eq!(found["n_positions"], (all - p).to_string(), "{path}");
                assert_eq!(found["positions"]["order"], order, "{path}");
                let modular = counted(&format!("{path}&mod=7"));
                assert_eq!(modular["p_positions"], (p % 7).to_string(), "{path}");
            }
        }
        // A proven period carries the count to 10^18, in the size notation.
        let far = counted("/api/count?game=kayles&to=1e18");
        assert_eq!(far["heaps"], "1000000000000000000");
        assert_eq!(far["through_period"]["period"], 12);
        // Values given instead of a game.
        let given = counted("/api/count?histogram=0%201%201%202&heaps=2");
        assert_eq!(given["total"], "16");
        assert_eq!(given["p_positions"], "6"); // 0^0, 1^1 four ways, 2^2
        // A grid of ruler coins, 3 x 4: every set of 12 heads.
        let ruler = |n: u64| n & n.wrapping_neg();
        let cells: Vec<u64> = (1..=4u64)
            .flat_map(|y| (1..=3u64).map(move |x| grundy::nim_field::mul(ruler(x), ruler(y))))
            .collect();
        let with = |target: u64| {
            (0u32..1 << cells.len())
                .filter(|heads| {
                    cells
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| heads >> i & 1 == 1)
                        .fold(0, |s, (_, &v)| s ^ v)
                        == target
                })
                .count()
        };
        let grid = counted("/api/count?game=ruler*ruler&to=3,4&nim_sum=5");
        assert_eq!(grid["total"], "4096");
        assert_eq!(grid["p_positions"], with(0).to_string());
        assert_eq!(grid["nim_sum"]["positions"], with(5).to_string());
        let huge = counted("/api/count?game=ruler*ruler&to=1e12,1e12&mod=1000000007");
        assert_eq!(huge["rank"], 64);
        // A formula the user writes, checked and then counted by: n mod 3
        // for subtraction {1, 2}, proven by its proven period.
        let by_formula = counted("/api/count?game=sub(1,2)&to=1e18&by_formula=n%20mod%203");
        assert_eq!(by_formula["by_formula"]["formula"], "g(n) = n mod 3");
        assert_eq!(by_formula["by_formula"]["proven"], true);
        assert_eq!(by_formula["p_positions"], "333333333333333333");
        // The page's form asks for the text `grundy count` prints.
        let (status, kind, text) = get("/api/count?game=kayles&to=1e18&format=text");
        assert_eq!(status, StatusCode::OK, "{text}");
        assert!(kind.starts_with("text/plain"), "{kind}");
        assert!(
            text.starts_with("kayles, heaps 1..=1000000000000000000: ")
                && text.contains("through the proven period 12 from heap 71"),
            "{text}"
        );
    }

    /// `/api/count?partitions=N` counts as `grundy count --partitions N`:
    /// the partitions of N into heaps of the game by nim-sum, with the
    /// sizes `parts` lists, `distinct` parts or exactly `heaps` of them;
    /// within the server's work limit, and refused naming the parameter.
    #[test]
    fn partitions_are_counted_as_the_cli_counts_them() {
        let forty = counted("/api/count?game=kayles&partitions=40");
        assert_eq!(forty["total"], "37338");
        assert_eq!(forty["p_positions"], "5016");
        assert_eq!(forty["parts"], Value::Null);
        // Distinct Nim heaps adding up to 10, by XOR: 1 of nim-sum 0
        // (4+3+2+1), 1 of 2, 5 of 4, 1 of 8, 2 of 10 (OEIS A307505).
        let nim = counted("/api/count?game=nim&partitions=10&distinct=true&all=true");
        assert_eq!(
            nim["by_nim_sum"],
            json!([[0, "1"], [2, "1"], [4, "5"], [8, "1"], [10, "2"]])
        );
        // Two odd heaps adding up to 10: 9+1, 7+3 and 5+5.
        let odd = counted("/api/count?game=nim&partitions=10&parts=1,3,5..9&heaps=2");
        assert_eq!(odd["total"], "3");
        assert_eq!(odd["parts"], "1,3,5..9");
        let (status, kind, text) = get("/api/count?game=kayles&partitions=40&format=text");
        assert_eq!(status, StatusCode::OK, "{text}");
        assert!(kind.starts_with("text/plain"), "{kind}");
        assert!(
            text.starts_with("partitions of 40 into heaps of kayles: 37338\n"),
            "{text}"
        );
        for (path, needle) in [
            (
                "/api/count?game=kayles&parts=1,2&to=5",
                "parameter partitions",
            ),
            (
                "/api/count?game=kayles&partitions=1e5",
                "machine-word operations",
            ),
            ("/api/count?game=kayles&partitions=10&to=5", "parameter to"),
            (
                "/api/count?game=kayles&partitions=10&parts=0",
                "invalid part sizes",
            ),
        ] {
            let (status, _, body) = get(path);
            assert_eq!(status, StatusCode::BAD_REQUEST, "{path}: {body}");
            assert!(body.contains(needle), "{path}: {body}");
        }
    }

    /// What `/api/count` refuses, each with a JSON error and 400.
    #[test]
    fn count_refusals_are_bad_requests() {
        for (path, needle) in [
            ("/api/count?game=kayles&to=3,4", "grid"),
            (
                "/api/count?game=kayles&to=10&heaps=5000",
                "at most 1000 heaps",
            ),
            (
                "/api/count?game=kayles&to=10&heaps=2&order=sideways",
                "order",
            ),
            ("/api/count?game=kayles&to=10&heaps=2&mod=0", "at least 1"),
            ("/api/count?game=kayles&to=1e300", "1e300"),
            (
                "/api/count?game=ruler*ruler&to=3&heaps=2",
                "coins does not take",
            ),
            ("/api/count?game=ruler&to=3,4", "a row of coins"),
            ("/api/count?game=kayles&to=10&nim_sum=3", "nim-sum"),
            ("/api/count?game=examples/kayles.rhai&to=10", "script"),
            ("/api/count?game=kayles", "last heap"),
            (
                "/api/count?game=sub(1,2)&to=1e18&by_formula=n%20mod%204",
                "fails at heap 3",
            ),
            (
                "/api/count?game=sub(1,2)&to=10&by_formula=n%20mod",
                "invalid formula",
            ),
            ("/api/count?game=hackenbush:x&to=3", ""),
        ] {
            let (status, _, body) = get(path);
            assert_eq!(status, StatusCode::BAD_REQUEST, "{path}: {body}");
            let error: Value = serde_json::from_str(&body).unwrap();
            let error = error["error"].as_str().unwrap();
            assert!(error.contains(needle), "{path}: {error}");
        }
    }

    #[test]
    fn scripts_are_analyzed_and_played() {
        // Kayles as a script: the same values as the built-in.
        let source = "fn options(n) { let out = []; for t in 1..3 { for a in 0..n - t + 1 { \
                      out.push(sum(a, n - t - a)); } } out }";
        let path = format!("/api/analyze?game=&to=40&script={}", encode(source));
        let (status, _, body) = get(&path);
        assert_eq!(status, StatusCode::OK, "{body}");
        let scripted: Value = serde_json::from_str(&body).unwrap();
        let (_, _, body) = get("/api/analyze?game=kayles&to=40");
        let built_in: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(scripted["values"], built_in["values"]);
        let (status, state) = post(
            "/api/position",
            json!({ "game": "", "script": source, "heaps": [4, 7] }),
        );
        assert_eq!(status, StatusCode::OK);
        assert_eq!(state["nim_sum"], 1 ^ 2);
        let (status, body) = post(
            "/api/position",
            json!({ "game": "", "script": "fn options(n) { loop {} }", "heaps": [3] }),
        );
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    }

    #[test]
    fn a_scripts_parameters_take_the_values_of_defines() {
        // Take 1 to K tokens: g(n) = n mod (K + 1).
        let source = "const K = 2; fn options(n) { let out = []; for k in 1..=K { \
                      out.push(n - k); } out }";
        let path = format!(
            "/api/analyze?game=&to=20&script={}&defines={}",
            encode(source),
            encode("K=4")
        );
        let (status, _, body) = get(&path);
        assert_eq!(status, StatusCode::OK, "{body}");
        let found: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(found["canonical"], "script(K=4)");
        assert_eq!(found["values"][9], 4);
        let (status, state) = post(
            "/api/position",
            json!({ "game": "", "script": source, "defines": "K=4", "heaps": [7] }),
        );
        assert_eq!(status, StatusCode::OK);
        assert_eq!(state["nim_sum"], 2);
        let counted = get(&format!(
            "/api/count?to=9&script={}&defines=K%3D4",
            encode(source)
        ));
        assert!(counted.2.contains("script(K=4)"), "{}", counted.2);
        // Refused: a name the script does not declare (its parameters
        // listed), a value that is no integer, defines without a script.
        for (defines, script, said) in [
            ("C=3", source, "the script's parameters: K"),
            ("K=x", source, "invalid define 'K=x'"),
            ("K=3", "", "send the script too"),
        ] {
            let path = format!(
                "/api/analyze?game=kayles&to=20&script={}&defines={}",
                encode(script),
                encode(defines)
            );
            let (status, _, body) = get(&path);
            assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
            assert!(body.contains(said), "{body}");
        }
    }

    /// The router under fuzzed requests: methods, paths and queries built
    /// from the API's own words, numbers at the edges and stray bytes, and
    /// bodies that are JSON of every shape, truncated or not JSON at all.
    /// No request may panic the handler (a 500) or leave it without an
    /// answer; every refusal is a JSON `{"error": ...}`. Cases come from
    /// `GRUNDY_FUZZ_CASES` (default 48); for a longer run:
    /// `GRUNDY_FUZZ_CASES=5000 cargo test --release -p grundy-cli fuzzed`.
    #[test]
    fn fuzzed_requests_are_answered_never_panicked() {
        use proptest::prelude::*;
        use proptest::test_runner::{Config, TestRunner};
        let cases = std::env::var("GRUNDY_FUZZ_CASES")
            .ok()
            .and_then(|t| t.parse().ok())
            .unwrap_or(48);
        let word = prop_oneof![
            Just("kayles".to_owned()),
            Just("0.137".to_owned()),
            Just("0.{2+}".to_owned()),
            Just("4.{62}".to_owned()),
            Just("0.&9223372036854775807;".to_owned()),
            Just("sub(1,3,4)".to_owned()),
            Just("wythoff".to_owned()),
            Just("rook(kayles,nim)".to_owned()),
            Just("ruler*ruler".to_owned()),
            Just("runs(2,5)".to_owned()),
            Just("grundy".to_owned()),
            Just("".to_owned()),
            "[ -~]{0,12}",
        ];
        let number = prop_oneof![
            (0u64..40).prop_map(|n| n.to_string()),
            Just("-1".to_owned()),
            Just("18446744073709551616".to_owned()),
            Just("1e300".to_owned()),
            Just("2^70".to_owned()),
            Just("x".to_owned()),
        ];
        let path = prop_oneof![
            Just("/api/analyze"),
            Just("/api/plot"),
            Just("/api/position"),
            Just("/api/move"),
            Just("/api/count"),
            Just("/api/games"),
            Just("/"),
            Just("/api/../etc/passwd"),
            Just("/nowhere"),
        ];
        let value = prop_oneof![
            word.clone().prop_map(Value::from),
            number
                .clone()
                .prop_map(|n| n.parse::<u64>().map_or(Value::from(n), Value::from)),
            prop::collection::vec(0u64..50, 0..4).prop_map(Value::from),
            Just(Value::Null),
            Just(json!([[1, 2], {"a": 1}])),
        ];
        let body = prop_oneof![
            (word.clone(), value.clone(), value.clone(), value.clone()).prop_map(
                |(game, heaps, component, to)| {
                    json!({"game": game, "heaps": heaps, "component": component, "to": to})
                        .to_string()
                }
            ),
            (word.clone(), value.clone()).prop_map(|(game, heaps)| {
                let text = json!({"game": game, "heaps": heaps}).to_string();
                text[..text.len() / 2].to_owned()
            }),
            "[ -~]{0,40}",
        ];
        // The count's options, each present or not, with numbers of every
        // kind and words it does not take.
        let option = |key: &'static str| {
            prop_oneof![
                Just(String::new()),
                number.clone().prop_map(move |n| format!("&{key}={n}")),
            ]
        };
        let options = (
            option("heaps"),
            option("from"),
            option("mod"),
            option("nim_sum"),
            prop_oneof![
                Just(String::new()),
                Just("&order=unordered".to_owned()),
                Just("&order=distinct".to_owned()),
                Just("&order=sideways".to_owned()),
                Just("&all=true".to_owned()),
                Just("&by_formula=maybe".to_owned()),
                Just("&histogram=0%201%201%202".to_owned()),
                Just("&to=3,4".to_owned()),
            ],
        )
            .prop_map(|(a, b, c, d, e)| format!("{a}{b}{c}{d}{e}"));
        let request = (any::<bool>(), path, word, number, body, options);
        let runtime = runtime();
        let mut runner = TestRunner::new(Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        });
        runner
            .run(&request, |(is_post, path, game, to, body, options)| {
                let query: String = format!("game={game}&to={to}")
                    .bytes()
                    .map(|b| match b {
                        b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'=' | b'&' | b'.' => {
                            (b as char).to_string()
                        }
                        _ => format!("%{b:02X}"),
                    })
                    .collect();
                let uri = format!("{path}?{query}{options}");
                let request = if is_post {
                    Request::post(uri)
                        .header(header::CONTENT_TYPE, "application/json")
                        .body(Body::from(body))
                } else {
                    Request::get(uri).body(Body::empty())
                }
                .unwrap();
                let response = runtime.block_on(async {
                    tokio::time::timeout(HANG, router().oneshot(request)).await
                });
                let response = response.expect("answered before the hang guard").unwrap();
                let status = response.status();
                prop_assert!(
                    status != StatusCode::INTERNAL_SERVER_ERROR,
                    "{} {}",
                    path,
                    query
                );
                if status.is_client_error() || status.is_server_error() {
                    let body = runtime
                        .block_on(to_bytes(response.into_body(), 1 << 20))
                        .unwrap();
                    let parsed: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
                    prop_assert!(
                        parsed["error"].is_string(),
                        "{} {}: {:?}",
                        status,
                        path,
                        body
                    );
                }
                Ok(())
            })
            .unwrap();
    }

    /// Sends one request to `app` in the current runtime: status and body.
    async fn call(app: Router, request: Request<Body>) -> (StatusCode, Value) {
        let response = app.oneshot(request).await.unwrap();
        let status = response.status();
        let body = to_bytes(response.into_body(), 1 << 26).await.unwrap();
        (status, serde_json::from_slice(&body).unwrap_or(Value::Null))
    }

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap()
    }

    /// Hang guard only: the deadline is 3 s, a loaded CI machine is slow.
    const HANG: Duration = Duration::from_secs(20);

    /// Tables whose heaps are costly (moves into 62 heaps or up to 62, with
    /// composition sets of 20,000 heaps; into three or five, or any number,
    /// of 10^5 heaps) are stopped at the deadline inside the computation, all at once,
    /// and the server answers as before afterwards.
    #[test]
    fn hostile_tables_stop_at_the_deadline_and_the_server_still_answers() {
        let app = router();
        runtime().block_on(async {
            let started = std::time::Instant::now();
            let hostile = [
                "/api/analyze?game=0.%7B62%7D&to=20000",
                "/api/analyze?game=0.9z&to=100000",
                "/api/analyze?game=4.%7B2%2B%7D&to=100000",
            ];
            let calls: Vec<_> = hostile
                .iter()
                .map(|path| {
                    let request = Request::get(*path).body(Body::empty()).unwrap();
                    tokio::spawn(call(app.clone(), request))
                })
                .collect();
            for (path, call) in hostile.iter().zip(calls) {
                let (status, body) = call.await.unwrap();
                assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{path}: {body}");
                let error = body["error"].as_str().unwrap();
                assert!(error.contains("more than 3 s"), "{path}: {error}");
            }
            assert!(started.elapsed() < HANG, "{:?}", started.elapsed());
            let games = Request::get("/api/games").body(Body::empty()).unwrap();
            let (status, catalogue) = call(app.clone(), games).await;
            assert_eq!(status, StatusCode::OK);
            assert!(catalogue.as_array().unwrap().len() > 10);
            let kayles = Request::get("/api/analyze?game=kayles&to=100")
                .body(Body::empty())
                .unwrap();
            assert_eq!(call(app, kayles).await.0, StatusCode::OK);
        });
    }

    /// A heap of `0.{2+}` has 190 million options at 100 and far more at
    /// 2000 (as has `0.&9223372036854775807;`, moves into up to 62 heaps,
    /// 170 thousand at 50): the first thousand are
    /// listed, with the winning moves, in a bounded answer; a move past the
    /// listing is still accepted.
    #[test]
    fn huge_option_listings_are_capped() {
        let started = std::time::Instant::now();
        for (game, heaps) in [
            ("0.{2+}", json!([100])),
            ("0.&9223372036854775807;", json!([50])),
            ("0.{2+}", json!([2000, 1000])),
        ] {
            let request = json!({ "game": game, "heaps": heaps });
            let (status, _, text) = send(
                Request::post("/api/position")
                    .header(header::CONTENT_TYPE, "application/json")
                    .body(Body::from(request.to_string()))
                    .unwrap(),
            );
            assert_eq!(status, StatusCode::OK, "{game} {heaps}: {text}");
            assert!(text.len() < 4 << 20, "{game} {heaps}: {} bytes", text.len());
            let state: Value = serde_json::from_str(&text).unwrap();
            let first = &state["components"][0];
            assert_eq!(first["truncated"], true, "{game} {heaps}");
            let listed = first["options"].as_array().unwrap().len();
            assert!((1..=1000).contains(&listed), "{game}: {listed}");
            if state["winner"] == "first" {
                assert!(!state["winning_moves"].as_array().unwrap().is_empty());
            }
        }
        // 100 -> 1 + 98 is an option of 0.{2+}, far past the first thousand
        // listed (which start 1 + 1 + ... + 1).
        let (status, played) = post(
            "/api/move",
            json!({ "game": "0.{2+}", "heaps": [100], "component": 0, "to": [98, 1] }),
        );
        assert_eq!(status, StatusCode::OK, "{played}");
        assert!(started.elapsed() < HANG, "{:?}", started.elapsed());
    }

    /// With every computing slot taken by costly requests, a cheap request
    /// is still answered (the quick lane), a costly one is refused as busy
    /// at the quick lane's deadline, and one past the quick lane at once;
    /// the catalogue, which computes nothing, answers throughout.
    #[test]
    fn a_full_server_answers_cheap_requests_and_refuses_costly_ones() {
        let app = routes(1);
        let costly = || {
            Request::get("/api/analyze?game=0.%7B62%7D&to=20000")
                .body(Body::empty())
                .unwrap()
        };
        let cheap = || {
            Request::get("/api/analyze?game=kayles&to=10")
                .body(Body::empty())
                .unwrap()
        };
        runtime().block_on(async {
            let slow = tokio::spawn(call(app.clone(), costly()));
            tokio::time::sleep(Duration::from_millis(300)).await;
            for _ in 0..20 {
                let (status, body) = call(app.clone(), cheap()).await;
                assert_eq!(status, StatusCode::OK, "{body}");
            }
            let (status, body) = call(app.clone(), costly()).await;
            assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
            assert!(body["error"].as_str().unwrap().contains("busy"), "{body}");
            // Every quick slot taken too: refused at once.
            let quick: Vec<_> = (0..QUICK_SLOTS)
                .map(|_| tokio::spawn(call(app.clone(), costly())))
                .collect();
            tokio::time::sleep(Duration::from_millis(50)).await;
            let (status, body) = call(app.clone(), cheap()).await;
            assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
            let games = Request::get("/api/games").body(Body::empty()).unwrap();
            assert_eq!(call(app.clone(), games).await.0, StatusCode::OK);
            for refused in quick {
                assert_eq!(refused.await.unwrap().0, StatusCode::SERVICE_UNAVAILABLE);
            }
            let (status, _) = slow.await.unwrap();
            assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
            // The slot is free again: a costly request computes in it.
            assert_eq!(call(app, cheap()).await.0, StatusCode::OK);
        });
    }

    /// A client that pipelines requests and reads no answer is dropped at
    /// the write timeout, and connections past the cap from one address
    /// are closed as they are accepted (on loopback, bounded).
    #[test]
    fn clients_that_never_read_or_open_too_many_connections_are_dropped() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        runtime().block_on(async {
            let patience = Patience {
                headers: HANG,
                shutdown: Duration::from_millis(300),
                write: Duration::from_millis(300),
                connections: MAX_CONNECTIONS,
                per_client: 4,
            };
            let (address, stop, server) = start(patience).await;
            // 4,000 catalogues asked at once fill the sockets' buffers.
            let mut greedy = tokio::net::TcpStream::connect(address).await.unwrap();
            let requests = "GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n".repeat(4000);
            let _ = greedy.write_all(requests.as_bytes()).await;
            tokio::time::sleep(Duration::from_millis(1000)).await;
            // Dropped: what was sent arrives, then the end, long before the
            // header timeout would have closed a connection kept alive.
            let mut answers = Vec::new();
            let read = tokio::time::timeout(HANG / 2, greedy.read_to_end(&mut answers)).await;
            assert!(read.is_ok(), "a client that never read was kept");
            drop(greedy);
            // Four idle connections are kept; a fifth is closed at once.
            let mut idle = Vec::new();
            for _ in 0..4 {
                idle.push(tokio::net::TcpStream::connect(address).await.unwrap());
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
            let mut fifth = tokio::net::TcpStream::connect(address).await.unwrap();
            let mut byte = [0u8; 1];
            let closed = tokio::time::timeout(HANG / 2, fifth.read(&mut byte)).await;
            assert!(
                matches!(closed, Ok(Ok(0)) | Ok(Err(_))),
                "a connection past the cap was kept"
            );
            // One of the four leaves: a new connection is served.
            drop(idle.pop());
            tokio::time::sleep(Duration::from_millis(100)).await;
            let mut next = tokio::net::TcpStream::connect(address).await.unwrap();
            next.write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                .await
                .unwrap();
            let mut answer = Vec::new();
            tokio::time::timeout(HANG / 2, next.read_to_end(&mut answer))
                .await
                .unwrap()
                .unwrap();
            assert!(answer.starts_with(b"HTTP/1.1 200"));
            stop.send(()).unwrap();
            drop(idle);
            server.await.unwrap();
        });
    }

    /// A handler dropped mid-computation (its client went away) cancels
    /// the work: it stops with `Cancelled`, long before the deadline.
    #[test]
    fn dropping_a_request_cancels_its_work() {
        let (sender, received) = std::sync::mpsc::channel();
        runtime().block_on(async {
            let work = blocking(move || {
                let game: grundy::HeapGame = "0.{62}".parse().unwrap();
                let found = TableSolver::new().values(&game, 20_000);
                sender.send(found.map(|_| ())).unwrap();
                Ok(())
            });
            // The client leaves after 200 ms: its handler's future is dropped.
            let left = tokio::time::timeout(Duration::from_millis(200), work).await;
            assert!(left.is_err(), "the work finished before the client left");
        });
        let outcome = received.recv_timeout(DEADLINE).unwrap();
        assert_eq!(outcome, Err(grundy::Error::Cancelled));
    }

    /// A body that never arrives is answered 408 after the body timeout
    /// (in paused time, so the test does not wait for it), and one over the
    /// size limit 413.
    #[test]
    fn bodies_are_bounded_in_time_and_size() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .start_paused(true)
            .build()
            .unwrap();
        runtime.block_on(async {
            let never =
                futures_util::stream::pending::<Result<axum::body::Bytes, std::io::Error>>();
            let request = Request::post("/api/position")
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from_stream(never))
                .unwrap();
            let (status, body) = call(router(), request).await;
            assert_eq!(status, StatusCode::REQUEST_TIMEOUT, "{body}");
            assert!(body["error"].as_str().unwrap().contains("10 s"), "{body}");
            let huge = format!(
                r#"{{"game":"nim","heaps":[1],"pad":"{}"}}"#,
                "x".repeat(MAX_BODY)
            );
            let request = Request::post("/api/position")
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(huge))
                .unwrap();
            assert_eq!(
                call(router(), request).await.0,
                StatusCode::PAYLOAD_TOO_LARGE
            );
        });
    }

    /// The real server on loopback, with `patience`: its address, the
    /// sender that stops it, and the server's task.
    async fn start(
        patience: Patience,
    ) -> (
        SocketAddr,
        tokio::sync::oneshot::Sender<()>,
        tokio::task::JoinHandle<()>,
    ) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let stopped = async {
            let _ = stopped.await;
        };
        let server = tokio::spawn(serve(listener, router(), stopped, patience));
        (address, stop, server)
    }

    /// A client that sends half its headers is dropped after the header
    /// timeout; a whole request is answered.
    #[test]
    fn slow_clients_are_dropped() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        runtime().block_on(async {
            let patience = Patience {
                headers: Duration::from_millis(300),
                shutdown: Duration::from_millis(300),
                ..PATIENCE
            };
            let (address, stop, server) = start(patience).await;
            let started = std::time::Instant::now();
            let mut slow = tokio::net::TcpStream::connect(address).await.unwrap();
            slow.write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")
                .await
                .unwrap();
            let mut answer = Vec::new();
            let read = tokio::time::timeout(HANG, slow.read_to_end(&mut answer)).await;
            assert!(read.is_ok(), "the half-sent request was never dropped");
            assert!(started.elapsed() >= patience.headers);
            let mut whole = tokio::net::TcpStream::connect(address).await.unwrap();
            whole
                .write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                .await
                .unwrap();
            let mut answer = Vec::new();
            whole.read_to_end(&mut answer).await.unwrap();
            assert!(answer.starts_with(b"HTTP/1.1 200"));
            stop.send(()).unwrap();
            server.await.unwrap();
        });
    }

    /// A stop ends the server within its bounded wait even while a client
    /// holds a half-sent request (whose header timeout is far off), and
    /// nothing listens afterwards.
    #[test]
    fn a_stop_waits_a_bounded_time() {
        use tokio::io::AsyncWriteExt;
        runtime().block_on(async {
            let patience = Patience {
                headers: Duration::from_secs(60),
                shutdown: Duration::from_millis(300),
                ..PATIENCE
            };
            let (address, stop, server) = start(patience).await;
            let mut half = tokio::net::TcpStream::connect(address).await.unwrap();
            half.write_all(b"GET /api/ga").await.unwrap();
            tokio::time::sleep(Duration::from_millis(100)).await;
            let stopping = std::time::Instant::now();
            stop.send(()).unwrap();
            tokio::time::timeout(HANG, server).await.unwrap().unwrap();
            assert!(stopping.elapsed() < HANG);
            assert!(tokio::net::TcpStream::connect(address).await.is_err());
        });
    }

    fn encode(text: &str) -> String {
        text.bytes()
            .map(|b| match b {
                b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' => (b as char).to_string(),
                _ => format!("%{b:02X}"),
            })
            .collect()
    }

    /// A whole game against the engine: the player always takes the first
    /// option offered; the engine, which starts from a position it wins
    /// after any first move here, makes the last move.
    #[test]
    fn a_game_is_played_to_the_end() {
        let mut heaps = vec![4, 4]; // nim-sum 0: whoever moves first loses
        let mut moves = 0;
        loop {
            let (_, state) = post("/api/position", json!({ "game": "kayles", "heaps": heaps }));
            let first = &state["components"]
                .as_array()
                .unwrap()
                .iter()
                .position(|c| !c["options"].as_array().unwrap().is_empty());
            let Some(component) = *first else { break };
            let to = state["components"][component]["options"][0]["to"].clone();
            let (status, played) = post(
                "/api/move",
                json!({ "game": "kayles", "heaps": heaps, "component": component, "to": to }),
            );
            assert_eq!(status, StatusCode::OK, "{played}");
            moves += 1;
            if !played["winner"].is_null() {
                assert_eq!(played["winner"], "engine");
                break;
            }
            // After the engine's reply the player faces nim-sum 0 again.
            assert_eq!(played["state"]["nim_sum"], 0);
            heaps = serde_json::from_value(played["state"]["heaps"].clone()).unwrap();
            assert!(moves < 20);
        }
        let (status, body) = post(
            "/api/move",
            json!({ "game": "kayles", "heaps": [4], "component": 0, "to": [4] }),
        );
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(body["error"].as_str().unwrap().contains("cannot become"));
    }
}

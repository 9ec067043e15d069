//! `grundy serve`: a local web playground (axum).
//!
//! One page (`assets/playground.html`, compiled in: no files are read at
//! run time, so nothing outside it can be served) and a small JSON API:
//!
//! - `GET /api/games`: the catalogue;
//! - `GET /api/analyze?game=G&to=N`: values, P-positions and the period;
//! - `GET /api/plot?game=G&to=N&view=scatter|table`: the picture as SVG;
//! - `POST /api/position {game, heaps}`: a sum of heaps explained — each
//!   heap's options with their values and the mex, the nim-sum, the
//!   winning moves;
//! - `POST /api/move {game, heaps, component, to}`: play a move; the
//!   engine answers with a winning move when it has one.
//!
//! Every request is validated and bounded: games by the length of their
//! specification, tables by size and by a deadline, sums by heap count and
//! size. Work runs on blocking threads, off the server's event loop.

use std::net::SocketAddr;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use axum::extract::Query;
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use grundy::analysis::{Limits, analyze, find_period};
use grundy::rules::{CATALOGUE, ExploredGame, ScriptGame, ScriptLimits, ScriptPosition};
use grundy::{HeapGame, HeapRuleset, Nimber, Options, TableSolver, ValueTable};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::plot::{Picture, View};

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
/// How long one request may compute.
const DEADLINE: Duration = Duration::from_secs(3);
/// Memory one request's table may take.
const TABLE_MEMORY: u64 = 64 << 20;

/// The routes of the playground.
pub fn router() -> Router {
    Router::new()
        .route("/", get(|| async { Html(PAGE) }))
        .route("/api/games", get(games))
        .route("/api/analyze", get(analyze_game))
        .route("/api/plot", get(plot))
        .route("/api/position", post(position))
        .route("/api/move", post(play_move))
        .fallback(|| async {
            failure(StatusCode::NOT_FOUND, "no such page".into()).into_response()
        })
}

/// Serves the playground on `address` until Ctrl-C.
pub fn run(address: SocketAddr) -> Result<(), crate::Failure> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .map_err(|e| crate::Failure::Input(format!("cannot listen on {address}: {e}")))?;
        let bound = listener.local_addr()?;
        eprintln!("grundy playground on http://{bound}/ (Ctrl-C stops)");
        axum::serve(listener, router())
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await?;
        Ok(())
    })
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

/// Runs `work` on a blocking thread.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work).await.map_err(|_| {
        failure(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the computation failed".into(),
        )
    })?
}

/// A game the playground plays: a built-in one, or rules typed as a Rhai
/// script (run with tight limits: 10^5 operations a call, 2 s, 10^5
/// positions).
enum WebGame {
    Heap(HeapGame),
    /// The script, and the game it explored for heaps `0..=to` (so options
    /// are listed without calling the script again).
    Script(Box<ScriptGame>, OnceLock<(u64, ExploredGame)>),
}

/// The longest script accepted.
const MAX_SCRIPT: usize = 20_000;

impl WebGame {
    fn parse(spec: &str, script: Option<&str>) -> Result<WebGame, ApiError> {
        if let Some(source) = script.filter(|s| !s.trim().is_empty()) {
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
            };
            return ScriptGame::compile("script", source, limits)
                .map(|g| WebGame::Script(Box::new(g), OnceLock::new()))
                .map_err(|e| bad_request(e.to_string()));
        }
        if spec.len() > MAX_SPEC {
            return Err(bad_request(format!(
                "a game is at most {MAX_SPEC} characters"
            )));
        }
        spec.parse()
            .map(WebGame::Heap)
            .map_err(|e: grundy::Error| bad_request(e.to_string()))
    }

    /// The distinct options of heap `h`, each sorted without empty heaps.
    fn options_of(&self, h: usize) -> Result<Vec<Vec<usize>>, ApiError> {
        let mut found: Vec<Vec<usize>> = Vec::new();
        match self {
            WebGame::Heap(game) => {
                game.visit_options(h, &mut |parts| found.push(parts.to_vec()));
            }
            WebGame::Script(game, explored) => {
                let start = ScriptPosition::Heap(h as u64);
                let fresh;
                let explored = match explored.get() {
                    Some((to, explored)) if h as u64 <= *to => explored,
                    _ => {
                        fresh = game
                            .explore(std::slice::from_ref(&start))
                            .map_err(engine_error)?;
                        &fresh
                    }
                };
                let mut listed = Options::new();
                grundy::Ruleset::options(explored, &start, &mut listed);
                for parts in listed.iter() {
                    let heaps = parts
                        .iter()
                        .map(|p| match p {
                            ScriptPosition::Heap(n) => Ok(*n as usize),
                            ScriptPosition::Tuple(_) => Err(bad_request(
                                "the playground plays scripts on heaps, not tuples",
                            )),
                        })
                        .collect::<Result<Vec<usize>, ApiError>>()?;
                    found.push(heaps);
                }
            }
        }
        for option in &mut found {
            option.retain(|&p| p > 0);
            option.sort_unstable();
        }
        found.sort();
        found.dedup();
        Ok(found)
    }

    /// `g(0..=to)`, stopped at the deadline.
    fn table(&self, to: u64) -> Result<ValueTable, ApiError> {
        match self {
            WebGame::Heap(game) => {
                let (solver, mut progress) = bounded();
                let mut table = ValueTable::new();
                solver
                    .extend(game, &mut table, to, &mut progress)
                    .map_err(engine_error)?;
                Ok(table)
            }
            WebGame::Script(game, explored) => {
                let (game_explored, values) = game.heap_table(to).map_err(engine_error)?;
                // A request builds one table, before it lists any options.
                let _ = explored.set((to, game_explored));
                Ok(values)
            }
        }
    }
}

/// A table solver bounded in memory, with a progress check that stops at
/// the deadline.
fn bounded() -> (TableSolver, impl FnMut(usize) -> bool) {
    let deadline = Instant::now() + DEADLINE;
    (
        TableSolver::new()
            .with_memory_limit(TABLE_MEMORY)
            .with_threads(1),
        move |_| Instant::now() < deadline,
    )
}

fn engine_error(error: grundy::Error) -> ApiError {
    match error {
        grundy::Error::Interrupted { .. } => failure(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the computation took more than {} s; ask for fewer heaps",
                DEADLINE.as_secs()
            ),
        ),
        other => bad_request(other.to_string()),
    }
}

async fn games() -> Json<Value> {
    Json(json!(
        CATALOGUE
            .iter()
            .map(|e| json!({ "name": e.name, "code": e.code, "description": e.description, "example": e.example }))
            .collect::<Vec<_>>()
    ))
}

#[derive(Deserialize)]
struct TableQuery {
    game: String,
    to: Option<u64>,
    view: Option<String>,
    script: Option<String>,
}

/// Values and what was found in them.
struct Tabled {
    game: String,
    values: ValueTable,
    periodicity: Option<grundy::analysis::Periodicity>,
    proven: bool,
    theorem: Option<&'static str>,
}

/// The largest table computed for a script (each heap is a script call).
const MAX_SCRIPT_TO: u64 = 2_000;

/// Values, P-positions and period of the game asked for, up to `to`.
fn compute(query: &TableQuery) -> Result<Tabled, ApiError> {
    let game = WebGame::parse(&query.game, query.script.as_deref())?;
    let to = query.to.unwrap_or(200);
    let most = if matches!(game, WebGame::Script(..)) {
        MAX_SCRIPT_TO
    } else {
        MAX_TO
    };
    if to > most {
        return Err(bad_request(format!(
            "the playground computes at most {most} heaps of this game"
        )));
    }
    match game {
        WebGame::Heap(game) => {
            let (solver, mut progress) = bounded();
            let limits = Limits {
                to: Some(to),
                ..Limits::default()
            };
            let found = analyze(&game, &limits, &solver, &mut progress).map_err(engine_error)?;
            Ok(Tabled {
                proven: found.is_proven(),
                theorem: found.theorem.map(|t| t.name()),
                periodicity: found.periodicity,
                game: found.game,
                values: found.values,
            })
        }
        script => {
            let values = script.table(to)?;
            Ok(Tabled {
                game: "script".into(),
                periodicity: find_period(&values),
                values,
                proven: false,
                theorem: None,
            })
        }
    }
}

async fn analyze_game(Query(query): Query<TableQuery>) -> Response {
    let result = blocking(move || {
        let found = compute(&query)?;
        let values: Vec<u32> = found.values.iter().map(Nimber::get).collect();
        let period = found.periodicity.map(|p| {
            json!({
                "preperiod": p.preperiod,
                "period": p.period,
                "saltus": p.saltus,
                "proven": found.proven,
                "theorem": found.theorem,
            })
        });
        let p_positions: Vec<usize> = (0..values.len())
            .filter(|&n| values[n] == 0)
            .take(1000)
            .collect();
        Ok(json!({
            "game": found.game,
            "to": values.len().saturating_sub(1),
            "values": values,
            "p_positions": p_positions,
            "period": period,
        }))
    })
    .await;
    match result {
        Ok(body) => Json(body).into_response(),
        Err(error) => error.into_response(),
    }
}

async fn plot(Query(query): Query<TableQuery>) -> Response {
    let view = match query.view.as_deref() {
        None | Some("scatter") => View::Scatter,
        Some("table") => View::Table,
        Some(other) => {
            return bad_request(format!("view '{other}' is not scatter or table")).into_response();
        }
    };
    let result = blocking(move || {
        let found = compute(&query)?;
        let picture = Picture {
            title: format!(
                "{}, g(0..={})",
                found.game,
                found.values.len().saturating_sub(1)
            ),
            values: &found.values,
            period: found
                .periodicity
                .filter(|p| p.saltus == 0)
                .map(|p| (p.preperiod, p.period)),
            support: if found.proven { "proven" } else { "observed" },
        };
        crate::plot::svg(&picture, view, (900, 420), None)
            .map(|(svg, _)| svg)
            .map_err(|e| failure(StatusCode::INTERNAL_SERVER_ERROR, e))
    })
    .await;
    match result {
        Ok(svg) => ([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response(),
        Err(error) => error.into_response(),
    }
}

#[derive(Deserialize)]
struct PositionRequest {
    game: String,
    #[serde(default)]
    script: Option<String>,
    heaps: Vec<usize>,
}

#[derive(Deserialize)]
struct MoveRequest {
    game: String,
    #[serde(default)]
    script: Option<String>,
    heaps: Vec<usize>,
    component: usize,
    to: Vec<usize>,
}

/// One heap of a sum, explained: its options, their values and the mex.
#[derive(Serialize)]
struct HeapExplained {
    heap: usize,
    value: u32,
    options: Vec<OptionExplained>,
}

#[derive(Serialize)]
struct OptionExplained {
    to: Vec<usize>,
    value: u32,
}

/// A sum of heaps, explained.
#[derive(Serialize)]
struct Explained {
    heaps: Vec<usize>,
    nim_sum: u32,
    /// `"first"` (the player to move wins) or `"second"`.
    winner: &'static str,
    components: Vec<HeapExplained>,
    winning_moves: Vec<Played>,
    /// Whether nobody can move: the player to move has lost.
    finished: bool,
}

#[derive(Clone, Serialize)]
struct Played {
    component: usize,
    from: usize,
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

fn explain(game: &WebGame, table: &ValueTable, heaps: &[usize]) -> Result<Explained, ApiError> {
    let value_of = |parts: &[usize]| parts.iter().map(|&p| table.at(p)).sum::<Nimber>();
    let mut components = Vec::with_capacity(heaps.len());
    let mut nim_sum = Nimber::ZERO;
    let mut finished = true;
    for &h in heaps {
        let options: Vec<OptionExplained> = game
            .options_of(h)?
            .into_iter()
            .map(|to| OptionExplained {
                value: value_of(&to).get(),
                to,
            })
            .collect();
        finished &= options.is_empty();
        // The heap's value is the mex of its options' values.
        let value = table.at(h);
        nim_sum ^= value;
        components.push(HeapExplained {
            heap: h,
            value: value.get(),
            options,
        });
    }
    let mut winning_moves = Vec::new();
    if !nim_sum.is_zero() {
        for (i, c) in components.iter().enumerate() {
            let target = c.value ^ nim_sum.get();
            for o in c.options.iter().filter(|o| o.value == target) {
                winning_moves.push(Played {
                    component: i,
                    from: c.heap,
                    to: o.to.clone(),
                });
            }
        }
    }
    Ok(Explained {
        heaps: heaps.to_vec(),
        nim_sum: nim_sum.get(),
        winner: if nim_sum.is_zero() { "second" } else { "first" },
        components,
        winning_moves,
        finished,
    })
}

/// The game and its value table for heaps `heaps`.
fn prepare(
    game: &str,
    script: Option<&str>,
    heaps: &[usize],
) -> Result<(WebGame, ValueTable), ApiError> {
    let game = WebGame::parse(game, script)?;
    check_heaps(heaps)?;
    let table = game.table(heaps.iter().copied().max().unwrap_or(0) as u64)?;
    Ok((game, table))
}

async fn position(Json(request): Json<PositionRequest>) -> Response {
    let result = blocking(move || {
        let (game, table) = prepare(&request.game, request.script.as_deref(), &request.heaps)?;
        explain(&game, &table, &request.heaps)
    })
    .await;
    match result {
        Ok(explained) => Json(explained).into_response(),
        Err(error) => error.into_response(),
    }
}

/// `heaps` after heap `component` became `to`.
fn apply(heaps: &[usize], component: usize, to: &[usize]) -> Vec<usize> {
    let mut next: Vec<usize> = heaps.to_vec();
    next.remove(component);
    next.extend(to);
    next
}

async fn play_move(Json(request): Json<MoveRequest>) -> Response {
    let result = blocking(move || {
        let (game, table) = prepare(&request.game, request.script.as_deref(), &request.heaps)?;
        let Some(&from) = request.heaps.get(request.component) else {
            return Err(bad_request(format!(
                "there is no heap {}",
                request.component + 1
            )));
        };
        let mut to = request.to.clone();
        to.retain(|&h| h > 0);
        to.sort_unstable();
        if !game.options_of(from)?.contains(&to) {
            return Err(bad_request(format!(
                "{from} cannot become {to:?} in one move"
            )));
        }
        let yours = Played {
            component: request.component,
            from,
            to: to.clone(),
        };
        let after = apply(&request.heaps, request.component, &to);
        let mut state = explain(&game, &table, &after)?;
        let after_yours = state.nim_sum;
        let mut reply = None;
        if !state.finished {
            // The engine wins when it can; otherwise it makes the first move
            // it has and hopes for a mistake.
            let chosen = state.winning_moves.first().cloned().or_else(|| {
                state.components.iter().enumerate().find_map(|(i, c)| {
                    c.options.first().map(|o| Played {
                        component: i,
                        from: c.heap,
                        to: o.to.clone(),
                    })
                })
            });
            if let Some(chosen) = chosen {
                let next = apply(&state.heaps, chosen.component, &chosen.to);
                reply = Some(chosen);
                state = explain(&game, &table, &next)?;
            }
        }
        let winner = match (state.finished, reply.is_some()) {
            (true, true) => Some("engine"),
            (true, false) => Some("you"),
            _ => None,
        };
        Ok(json!({
            "yours": yours,
            "after_yours": after_yours,
            "reply": reply,
            "state": state,
            "winner": winner,
        }))
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
        assert_eq!(found["period"]["period"], 12);
        assert_eq!(found["period"]["proven"], true);
        let (status, kind, svg) = get("/api/plot?game=kayles&to=100&view=table");
        assert_eq!(status, StatusCode::OK);
        assert!(kind == "image/svg+xml" && svg.starts_with("<svg"));
    }

    #[test]
    fn requests_are_validated_and_bounded() {
        for (path, needle) in [
            ("/api/analyze?game=chess", "unknown game"),
            (
                "/api/analyze?game=kayles&to=1000000",
                "at most 100000 heaps",
            ),
            ("/api/plot?game=kayles&view=pie", "not scatter or table"),
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

//! `grundy serve`: a local web playground (axum).
//!
//! One page (`assets/playground.html`, compiled in: no files are read at
//! run time, so nothing outside it can be served) and a small JSON API:
//!
//! - `GET /api/games`: the catalogue;
//! - `GET /api/analyze?game=G&to=N`: the report `grundy analyze --format
//!   json` gives (period, support, P-positions, ...), with `values` and `to`;
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
use std::time::{Duration, Instant};

use axum::extract::Query;
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use grundy::analysis::{Analysis, Limits};
use grundy::report::AnalysisReport;
use grundy::rules::{ScriptGame, ScriptLimits};
use grundy::session::{HeapRules, HeapValues, analyze_heap_game};
use grundy::spec::{CATALOGUE, GameSpec, Question};
use grundy::{ExplainedSum, Nimber, TableSolver, ValueTable, WinningMove, explain_sum};
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

/// The longest script accepted.
const MAX_SCRIPT: usize = 20_000;

/// The game a request names: a built-in heap game, or rules typed as a
/// Rhai script (run with tight limits: 10^5 operations a call, 2 s, 10^5
/// positions). The library's spec parser decides what the text means.
fn parse_game(spec: &str, script: Option<&str>, question: Question) -> Result<HeapRules, ApiError> {
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
            .map(HeapRules::script)
            .map_err(|e| bad_request(e.to_string()));
    }
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
    HeapRules::from_spec(&spec, question, &ScriptLimits::default())
        .map_err(|e| bad_request(e.to_string()))
}

/// `g(0..=to)` of `game`, stopped at the deadline.
fn table(game: &HeapRules, to: u64) -> Result<ValueTable, ApiError> {
    let (solver, mut progress) = bounded();
    match game
        .values(to, &solver, &mut progress)
        .map_err(engine_error)?
    {
        HeapValues::Finite(values) => Ok(values),
        HeapValues::Loopy(_) => Err(bad_request(
            "the game's heaps can grow, so play can cycle; the playground plays finite games",
        )),
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
    Json(json!(CATALOGUE))
}

#[derive(Deserialize)]
struct TableQuery {
    game: String,
    to: Option<u64>,
    view: Option<String>,
    script: Option<String>,
}

/// The largest table computed for a script (each heap is a script call).
const MAX_SCRIPT_TO: u64 = 2_000;

/// Values, P-positions and period of the game asked for, up to `to`.
fn compute(query: &TableQuery) -> Result<Analysis, ApiError> {
    let game = parse_game(&query.game, query.script.as_deref(), Question::Analyze)?;
    let to = query.to.unwrap_or(200);
    let most = if game.as_script().is_some() {
        MAX_SCRIPT_TO
    } else {
        MAX_TO
    };
    if to > most {
        return Err(bad_request(format!(
            "the playground computes at most {most} heaps of this game"
        )));
    }
    let (solver, mut progress) = bounded();
    let limits = Limits {
        to: Some(to),
        ..Limits::default()
    };
    analyze_heap_game(&game, ValueTable::new(), &limits, &solver, &mut progress)
        .map_err(engine_error)
}

/// `/api/analyze`: the analysis report of `grundy analyze --format json`,
/// with every value computed and the last heap, `to`.
#[derive(Serialize)]
struct TableAnalysis {
    #[serde(flatten)]
    report: AnalysisReport,
    to: usize,
    values: Vec<Nimber>,
}

async fn analyze_game(Query(query): Query<TableQuery>) -> Response {
    let result = blocking(move || {
        let found = compute(&query)?;
        Ok(TableAnalysis {
            report: AnalysisReport::new(&query.game, &found),
            to: found.computed_to(),
            values: found.values.iter().collect(),
        })
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
            support: if found.is_proven() {
                "proven"
            } else {
                "observed"
            },
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
    script: Option<&str>,
    heaps: &[usize],
) -> Result<(HeapRules, ValueTable), ApiError> {
    let game = parse_game(game, script, Question::Sum)?;
    check_heaps(heaps)?;
    let values = table(&game, heaps.iter().copied().max().unwrap_or(0) as u64)?;
    Ok((game, values))
}

/// The sum of `heaps` explained (options, values, winning moves), by the
/// library; a script's own error is reported as itself.
fn explain(
    game: &HeapRules,
    values: &ValueTable,
    heaps: &[usize],
) -> Result<ExplainedSum, ApiError> {
    game.checked(explain_sum(game, values, heaps))
        .map_err(engine_error)
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
        let before = explain(&game, &table, &request.heaps)?;
        if !before.components[request.component]
            .options
            .iter()
            .any(|o| o.to == to)
        {
            return Err(bad_request(format!(
                "{from} cannot become {to:?} in one move"
            )));
        }
        let yours = WinningMove {
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
                    c.options.first().map(|o| WinningMove {
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
        assert_eq!(found["period"], 12);
        assert_eq!(found["proven"], true);
        assert_eq!(found["to"], 200);
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

    fn compute_kayles(to: u64) -> grundy::analysis::Analysis {
        compute(&super::TableQuery {
            game: "kayles".into(),
            to: Some(to),
            view: None,
            script: None,
        })
        .unwrap_or_else(|_| panic!("kayles to {to} is analyzed"))
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

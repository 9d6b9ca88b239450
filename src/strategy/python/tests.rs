//! The `python` kind's spec: what reads, what is refused and how, and the host hook.

use super::*;
use crate::board::Size8;
use crate::strategy::StrategySpec;

fn read(text: &str) -> Result<StrategySpec, String> {
    StrategySpec::parse(text).map_err(|e| e.to_string())
}

fn python(spec: &StrategySpec) -> &PythonSpec {
    match spec {
        StrategySpec::Python(p) => p,
        other => panic!("not python: {other:?}"),
    }
}

#[test]
fn the_one_line_and_table_forms_read_alike() {
    let line = read(
        "python:callable=my_pkg.strategies:choose,params={corner=25.0},python=.venv/bin/python",
    )
    .unwrap();
    let table: toml::Table = toml::from_str(
        r#"s = { kind = "python", callable = "my_pkg.strategies:choose", params = { corner = 25.0 }, python = ".venv/bin/python" }"#,
    )
    .unwrap();
    let from_table = StrategySpec::from_value(&table["s"]).unwrap();
    assert_eq!(line, from_table);
    let p = python(&line);
    assert_eq!(
        p.params.callable.as_deref(),
        Some("my_pkg.strategies:choose")
    );
    assert_eq!(p.params.params["corner"].as_float(), Some(25.0));
    assert_eq!(p.role(), None);
    // Round trip through the TOML form, as run.toml records it.
    assert_eq!(StrategySpec::from_table(&line.to_table()).unwrap(), line);
    assert!(line.is_evaluation());
}

#[test]
fn bad_specs_are_refused_in_one_line() {
    for (spec, message) in [
        ("python", "strategy 'python': callable is missing: give the function as callable = \"module:function\""),
        ("python:callable=choose", "strategy 'python': callable = \"choose\" is not module:function: write it like callable = \"my_pkg.strategies:choose\""),
        ("python:callable=m:1x", "strategy 'python': callable = \"m:1x\" is not module:function: write it like callable = \"my_pkg.strategies:choose\""),
        ("python:callable=m:f,name=mine", "strategy 'python': give callable or name, not both: callable runs module:function in worker processes, name is one the Python package hands over"),
        ("python:callable=m:f,role=judge", "strategy 'python': role = judge is not known: use strategy or evaluation"),
        ("python:callable=m:f,stall_timeout=soon", "strategy 'python': stall_timeout = \"soon\" is not accepted: use a positive time of at most a day with its unit, such as 100ms or 2s (in quotes in a TOML file: \"100ms\")"),
    ] {
        let err = read(spec).unwrap_err();
        assert_eq!(err, message, "{spec}");
        assert!(!err.contains('\n'));
    }
}

#[test]
fn a_name_no_host_filled_is_refused_when_built() {
    let spec = read("python:name=mine").unwrap();
    let err = spec
        .build::<Size8>(Rules::default())
        .err()
        .unwrap()
        .to_string();
    assert_eq!(
        err,
        format!("strategy 'python': name = \"mine\": {NAME_WITHOUT_HOST}")
    );
    let nested = read("alphabeta:depth=1,eval=(python:name=mine)").unwrap();
    let err = nested
        .build::<Size8>(Rules::default())
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains(NAME_WITHOUT_HOST), "{err}");
}

#[test]
fn a_strategy_role_cannot_be_an_evaluation() {
    let spec = read("python:name=mine,role=strategy").unwrap();
    let err = spec.build_evaluator::<Size8>().err().unwrap().to_string();
    assert!(
        err.contains("role = strategy cannot value a position"),
        "{err}"
    );
}

/// A host that answers every move with the first legal square it is told of, and
/// values every position 1.5: the hook as the Python package uses it.
struct Fixed;

struct FixedSession {
    board: crate::board::Position<Size8>,
}

impl Host for Fixed {
    fn describe(&self) -> String {
        "fixed".into()
    }
    fn session(&self, _role: Role) -> Result<Box<dyn Session>, String> {
        Ok(Box::new(FixedSession {
            board: crate::board::Position::start(),
        }))
    }
}

impl Session for FixedSession {
    fn choose(&mut self, turn: &Turn<'_>, _deadline: Instant) -> Result<Reply, Failure> {
        if turn.new_game.is_some() {
            self.board = crate::board::Position::start();
        }
        for ply in turn.plies {
            self.board = match ply {
                Some(square) => self.board.play(*square),
                None => self.board.pass(),
            };
        }
        let moves = self.board.board.moves();
        Ok(Reply::Square(crate::board::Square::new(
            crate::board::Bits::lowest(moves),
        )))
    }
    fn value(&mut self, _obf: &str, _deadline: Instant) -> Result<f64, Failure> {
        Ok(1.5)
    }
}

/// Fills every `python` spec with `host`, nested ones too: how a host walks a spec.
fn fill(spec: &mut StrategySpec, host: &Arc<dyn Host>) {
    struct Fill<'a>(&'a Arc<dyn Host>);
    impl crate::strategy::kind::VisitMut for Fill<'_> {
        type Out = ();
        fn kind<K: Kind>(self, spec: &mut K) {
            if let Some(python) = (spec as &mut dyn std::any::Any).downcast_mut::<PythonSpec>() {
                python.host(self.0.clone());
            }
            for nested in spec.nested_mut() {
                fill(nested, self.0);
            }
        }
    }
    spec.visit_mut(Fill(host));
}

#[test]
fn a_host_fills_name_specs_and_they_play_and_evaluate() {
    let host: Arc<dyn Host> = Arc::new(Fixed);
    let mut spec = read("python:name=mine").unwrap();
    fill(&mut spec, &host);
    let player = spec.build::<Size8>(Rules::default()).unwrap();
    assert_eq!(player.identity().as_deref(), Some("fixed"));
    // The lowest legal move each turn, whole games through the history it is told.
    let mut rng = <crate::strategy::GameRng as rand::SeedableRng>::seed_from_u64(1);
    let mut memory = crate::strategy::Memory::<Size8>::new();
    for _ in 0..2 {
        memory.new_game();
        let mut moves = Vec::new();
        let mut position = crate::board::Position::<Size8>::start();
        for _ in 0..6 {
            let legal = position.board.moves();
            let mut context = crate::strategy::Context {
                rng: &mut rng,
                memory: &mut memory,
                history: crate::strategy::History::from_start(&moves),
            };
            let choice = player.choose(position.board, legal, &mut context).unwrap();
            assert_eq!(choice.square.index(), crate::board::Bits::lowest(legal));
            moves.push(choice.square);
            position = position.play(choice.square);
        }
    }
    // The host's callable as the evaluation of a search, and a clone keeps its host.
    let mut search = read("alphabeta:depth=1,eval=(python:name=mine)").unwrap();
    fill(&mut search, &host);
    assert_eq!(search.clone(), search);
    search.build::<Size8>(Rules::default()).unwrap();
    let mut eval = read("python:name=mine,role=evaluation").unwrap();
    fill(&mut eval, &host);
    let eval = eval.build_evaluator::<Size8>().unwrap();
    assert_eq!(eval.evaluate(crate::board::Board::start()), 1500);
}

/// A host that answers each move with the next of its replies and records the plies it
/// is told.
struct Scripted {
    replies: std::sync::Mutex<Vec<Reply>>,
    told: Arc<std::sync::Mutex<Vec<Option<crate::board::Square>>>>,
}

struct ScriptedSession(Arc<Scripted>);

impl Host for Arc<Scripted> {
    fn describe(&self) -> String {
        "scripted".into()
    }
    fn session(&self, _role: Role) -> Result<Box<dyn Session>, String> {
        Ok(Box::new(ScriptedSession(self.clone())))
    }
}

impl Session for ScriptedSession {
    fn choose(&mut self, turn: &Turn<'_>, _deadline: Instant) -> Result<Reply, Failure> {
        self.0.told.lock().unwrap().extend_from_slice(turn.plies);
        Ok(self.0.replies.lock().unwrap().remove(0))
    }
    fn value(&mut self, _obf: &str, _deadline: Instant) -> Result<f64, Failure> {
        unreachable!("a strategy")
    }
}

#[test]
fn a_reply_is_a_square_or_text_and_either_must_be_legal() {
    use crate::board::{Position, Square};
    let square = |name| Square::parse(name, 8).unwrap();
    let scripted = Arc::new(Scripted {
        replies: std::sync::Mutex::new(vec![
            Reply::Square(square("f5")),
            Reply::Text(" d3 ".into()),
            Reply::Square(square("a1")),
            Reply::Text("None".into()),
        ]),
        told: Arc::default(),
    });
    let host: Arc<dyn Host> = Arc::new(scripted.clone());
    let mut spec = read("python:name=mine").unwrap();
    fill(&mut spec, &host);
    let player = spec.build::<Size8>(Rules::default()).unwrap();
    let mut rng = <crate::strategy::GameRng as rand::SeedableRng>::seed_from_u64(1);
    let mut memory = crate::strategy::Memory::<Size8>::new();
    let mut ask = |memory: &mut crate::strategy::Memory<Size8>| {
        memory.new_game();
        let position = Position::<Size8>::start();
        let mut context = crate::strategy::Context {
            rng: &mut rng,
            memory,
            history: crate::strategy::History::from_start(&[]),
        };
        player
            .choose(position.board, position.board.moves(), &mut context)
            .map(|c| c.square.name(8))
            .map_err(|f| (f.termination, f.reason))
    };
    assert_eq!(ask(&mut memory), Ok("f5".into()));
    assert_eq!(ask(&mut memory), Ok("d3".into()));
    let illegal = crate::game::Termination::Illegal;
    assert_eq!(
        ask(&mut memory),
        Err((
            illegal,
            "it returned 'a1', not a legal move for black (legal: d3 c4 f5 e6)".into()
        ))
    );
    assert_eq!(
        ask(&mut memory),
        Err((
            illegal,
            "it returned 'None', not a legal move for black (legal: d3 c4 f5 e6)".into()
        ))
    );
}

#[test]
fn a_pass_is_told_as_a_ply_of_its_own() {
    use crate::board::{Position, Square};
    let scripted = Arc::new(Scripted {
        replies: std::sync::Mutex::new(vec![Reply::Text("c1".into())]),
        told: Arc::default(),
    });
    let host: Arc<dyn Host> = Arc::new(scripted.clone());
    let mut spec = read("python:name=mine").unwrap();
    fill(&mut spec, &host);
    let player = spec.build::<Size8>(Rules::default()).unwrap();
    // Black to move has none (its one disc cannot flank the corner): white moves after
    // black's pass, which the history leaves implicit.
    let start = Position::<Size8>::from_obf(&format!("OX{} X", "-".repeat(62))).unwrap();
    let mut rng = <crate::strategy::GameRng as rand::SeedableRng>::seed_from_u64(1);
    let mut memory = crate::strategy::Memory::<Size8>::new();
    memory.new_game();
    let white = start.pass();
    let mut context = crate::strategy::Context {
        rng: &mut rng,
        memory: &mut memory,
        history: crate::strategy::History::at(start),
    };
    let choice = player
        .choose(white.board, white.board.moves(), &mut context)
        .unwrap();
    assert_eq!(choice.square, Square::parse("c1", 8).unwrap());
    assert_eq!(*scripted.told.lock().unwrap(), vec![None]);
}

/// A host whose evaluation always raises, counting the sessions it is asked for.
struct Raising(std::sync::atomic::AtomicUsize);

impl Host for Raising {
    fn describe(&self) -> String {
        "raising".into()
    }
    fn session(&self, _role: Role) -> Result<Box<dyn Session>, String> {
        self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Ok(Box::new(RaisingSession))
    }
}

struct RaisingSession;

impl Session for RaisingSession {
    fn choose(&mut self, _turn: &Turn<'_>, _deadline: Instant) -> Result<Reply, Failure> {
        Err(Failure::Raised("ValueError: boom".into()))
    }
    fn value(&mut self, _obf: &str, _deadline: Instant) -> Result<f64, Failure> {
        Err(Failure::Raised("ValueError: boom".into()))
    }
}

#[test]
fn an_evaluation_that_raises_keeps_its_session() {
    let raising = Arc::new(Raising(std::sync::atomic::AtomicUsize::new(0)));
    let host: Arc<dyn Host> = raising.clone();
    let mut eval = read("python:name=mine,role=evaluation").unwrap();
    fill(&mut eval, &host);
    let eval = eval.build_evaluator::<Size8>().unwrap();
    let made = raising.0.load(std::sync::atomic::Ordering::Relaxed);
    for _ in 0..20 {
        // A failing call values the position 0 and leaves its fault pending.
        assert_eq!(eval.evaluate(crate::board::Board::start()), 0);
        let fault = eval_fault::take().expect("a pending fault");
        assert_eq!(fault.termination, crate::game::Termination::Error);
        assert_eq!(fault.reason, "ValueError: boom");
    }
    // One session at most for the calls (a worker process each, in a config file).
    let after = raising.0.load(std::sync::atomic::Ordering::Relaxed);
    assert!(
        after - made <= 1,
        "{made} sessions before the calls, {after} after"
    );
}

/// A host whose evaluation raises from its `after`-th call on, counting its calls.
struct RaisingFrom {
    after: usize,
    calls: Arc<std::sync::atomic::AtomicUsize>,
}

struct RaisingFromSession {
    after: usize,
    calls: Arc<std::sync::atomic::AtomicUsize>,
}

impl Host for RaisingFrom {
    fn describe(&self) -> String {
        "raising_from".into()
    }
    fn session(&self, _role: Role) -> Result<Box<dyn Session>, String> {
        Ok(Box::new(RaisingFromSession {
            after: self.after,
            calls: self.calls.clone(),
        }))
    }
}

impl Session for RaisingFromSession {
    fn choose(&mut self, _turn: &Turn<'_>, _deadline: Instant) -> Result<Reply, Failure> {
        unreachable!("an evaluation")
    }
    fn value(&mut self, _obf: &str, _deadline: Instant) -> Result<f64, Failure> {
        let call = self
            .calls
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if call >= self.after {
            Err(Failure::Raised(
                "ZeroDivisionError: division by zero".into(),
            ))
        } else {
            Ok(0.25)
        }
    }
}

#[test]
fn an_evaluation_fault_loses_the_game_for_the_search_that_called_it() {
    let calls = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let host: Arc<dyn Host> = Arc::new(RaisingFrom {
        after: 5,
        calls: calls.clone(),
    });
    for text in [
        "alphabeta:depth=4,eval=(python:name=mine)",
        "python:name=mine,role=evaluation",
    ] {
        calls.store(0, std::sync::atomic::Ordering::Relaxed);
        let mut spec = read(text).unwrap();
        fill(&mut spec, &host);
        let player = spec.build::<Size8>(Rules::default()).unwrap();
        // It says what its evaluation is (run.toml's engines), so a run watches its faults.
        assert_eq!(
            player.identity().as_deref(),
            Some("evaluation raising_from"),
            "{text}"
        );
        let mut rng = <crate::strategy::GameRng as rand::SeedableRng>::seed_from_u64(1);
        let mut memory = crate::strategy::Memory::<Size8>::new();
        memory.new_game();
        let mut context = crate::strategy::Context {
            rng: &mut rng,
            memory: &mut memory,
            history: crate::strategy::History::from_start(&[]),
        };
        let board = crate::board::Board::<Size8>::start();
        // The first move's calls are fewer than 5 one ply deep, more at depth 4.
        let mut faulted = None;
        for _ in 0..5 {
            match player.choose(board, board.moves(), &mut context) {
                Ok(_) => continue,
                Err(fault) => {
                    faulted = Some(fault);
                    break;
                }
            }
        }
        let fault = faulted.expect("a fault");
        assert_eq!(fault.termination, crate::game::Termination::Error, "{text}");
        assert_eq!(fault.reason, "ZeroDivisionError: division by zero");
        // After the fault the search made no more calls: 5 that answered, 1 that raised.
        let made = calls.load(std::sync::atomic::Ordering::Relaxed);
        assert_eq!(made, 6, "{text}");
        assert!(eval_fault::take().is_none());
    }
}

#[test]
fn its_deadlines_may_change_on_resume_like_an_engines() {
    let recorded: toml::Table = toml::from_str(
        r#"
        kind = "alphabeta"
        depth = 2
        eval = { kind = "python", callable = "m:f", stall_timeout = "5s", params = { stall_timeout = 1 } }
        "#,
    )
    .unwrap();
    let mut was = recorded.clone();
    crate::strategy::engine::without_resumable_keys(&mut was);
    let mut now = recorded;
    let eval = now["eval"].as_table_mut().unwrap();
    eval.insert("stall_timeout".into(), "1m".into());
    eval.insert("start_timeout".into(), "40s".into());
    crate::strategy::engine::without_resumable_keys(&mut now);
    assert_eq!(was, now);
    // The callable's own parameters are not deadlines: a change of them is a change.
    assert_eq!(was["eval"]["params"]["stall_timeout"].as_integer(), Some(1));
    let mut player: toml::Table = toml::from_str(
        r#"kind = "python"
callable = "m:f"
start_timeout = "3s""#,
    )
    .unwrap();
    crate::strategy::engine::without_resumable_keys(&mut player);
    assert!(!player.contains_key("start_timeout"));
}

//! `tarot-archive`: validate recorded games, list and show rulesets, simulate games, import
//! TarotClub deal logs. A thin layer over `tarot-engine`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use rand::SeedableRng;
use tarot_engine::{describe, import, parse_record, replay, simulate, Registry, Status};

/// mimalloc instead of glibc's allocator: a request allocates and frees many small values on the
/// server's worker threads; with mimalloc the server's CPU time per `POST /validate` fell by a sixth.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

const USAGE: &str = "\
usage:
  tarot-archive serve [--addr 127.0.0.1:8080] [--data DIR] [--write-token TOKEN]
                                                  run the HTTP API on the archive in DIR (default ./data);
                                                  the token may also come from TAROT_WRITE_TOKEN
  tarot-archive rebuild [--data DIR]              recompute every stored game's verdict from its events
  tarot-archive openapi                           print the OpenAPI document
  tarot-archive validate [--text] FILE...        replay recorded games and print their verdicts
  tarot-archive rulesets                          list the rulesets
  tarot-archive rulesets show ID [--json]         the resolved rules of a ruleset, with sources
  tarot-archive compare --rulesets ID,ID... [--json] [FILE]
                                                  rulesets side by side, aspect by aspect; with a
                                                  recorded game, its verdicts under each and where
                                                  they first diverge
  tarot-archive stats --rulesets ID,ID... --deals N --seed S [--players N] [--json]
                                                  deal statistics (annulments, declarations, classes
                                                  per hand) over N seeded random deals, side by side
  tarot-archive simulate --ruleset ID [--players N] --games K --seed S --out DIR
                 [--steer] [--contract ID|even|uniform] [--hold-excuse P] [--strong-hand P]
                                                  write K random legal games; --steer exercises the
                                                  rare cases (every contract evenly, strong hands,
                                                  the Excuse held back); --contract, --hold-excuse (a
                                                  chance per game, 0 to 1) and --strong-hand (a chance
                                                  per deal) set one steering each
  tarot-archive import tarotclub FILE... [--out DIR]
                                                  convert TarotClub deal logs to this project's format
options for every command:
  --rules-dir DIR   read rule files from DIR instead of the built-in ones

exit status of validate: 0 when no game breaks a rule, 1 when one does, 2 when a file cannot be read
or parsed.";

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let rules_dir = take_value(&mut args, "--rules-dir");
    if args.first().map(String::as_str) != Some("serve") {
        // An offline command piped into `head` stops quietly when the pipe closes, as command-line
        // tools do, instead of panicking on a failed print. (The server keeps Rust's default, which
        // turns a closed socket into an error it handles.)
        // SAFETY: restoring a signal's default disposition at startup, before any thread exists.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        }
    }
    let registry = match rules_dir {
        Some(dir) => Registry::from_dir(Path::new(&dir)),
        None => Registry::builtin().map_err(|d| d.to_string()),
    };
    let registry = match registry {
        Ok(r) => r,
        Err(e) => {
            eprintln!("the rulesets do not compile:\n{e}");
            return ExitCode::from(2);
        }
    };
    let result = match args.first().map(String::as_str) {
        Some("validate") => return validate(&registry, &args[1..]),
        Some("serve") => serve(registry, &args[1..]),
        Some("rebuild") => rebuild(&registry, &args[1..]),
        Some("openapi") => {
            print!("{}", tarot_api::docs::openapi_json());
            Ok(())
        }
        Some("rulesets") => rulesets(&registry, &args[1..]),
        Some("simulate") => simulate_games(&registry, &args[1..]),
        Some("compare") => compare_rulesets(&registry, &args[1..]),
        Some("stats") => deal_statistics(&registry, &args[1..]),
        Some("import") => import_games(&args[1..]),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown command `{other}`\n{USAGE}")),
        None => Err(USAGE.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}

/// An option's whole number, if given.
fn whole(value: Option<String>, what: &str) -> Result<Option<u64>, String> {
    value.map(|s| s.parse::<u64>().map_err(|_| format!("{what} must be a whole number, not `{s}`"))).transpose()
}

fn no_more(args: &[String]) -> Result<(), String> {
    match args.first() {
        Some(extra) => Err(format!("unexpected argument `{extra}`\n{USAGE}")),
        None => Ok(()),
    }
}

fn serve(registry: Registry, args: &[String]) -> Result<(), String> {
    let mut args = args.to_vec();
    let addr = take_value(&mut args, "--addr").unwrap_or_else(|| "127.0.0.1:8080".into());
    let data = PathBuf::from(take_value(&mut args, "--data").unwrap_or_else(|| "data".into()));
    let write_token = take_value(&mut args, "--write-token").or_else(|| std::env::var("TAROT_WRITE_TOKEN").ok()).filter(|t| !t.is_empty());
    no_more(&args)?;
    // Colours for a terminal only: a log file gets plain text.
    let colours = std::io::IsTerminal::is_terminal(&std::io::stderr());
    tracing_subscriber::fmt().with_target(false).with_ansi(colours).with_writer(std::io::stderr).init();
    let store = std::sync::Arc::new(tarot_store::Store::open(&data).map_err(|e| format!("{}: {e}", data.display()))?);
    let listener = std::net::TcpListener::bind(&addr).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let bound = listener.local_addr().map_err(|e| e.to_string())?;
    // The first line on stdout says where the server is: tests that start it on port 0 read it.
    println!("listening on http://{bound}");
    use std::io::Write;
    let _ = std::io::stdout().flush();
    tracing::info!("serving the archive in {} on http://{bound}{}", data.display(), if write_token.is_some() { " (writes need the token)" } else { "" });
    let state = tarot_api::AppState { store: store.clone(), registry: std::sync::Arc::new(registry), write_token };
    // actix-web stops gracefully on SIGINT and SIGTERM: requests in flight finish, then the store
    // is flushed once more before the process exits.
    actix_web::rt::System::new().block_on(async move { tarot_api::run(listener, state)?.await }).map_err(|e| e.to_string())?;
    store.flush().map_err(|e| e.to_string())?;
    tracing::info!("stopped; the archive is flushed");
    Ok(())
}

fn rebuild(registry: &Registry, args: &[String]) -> Result<(), String> {
    let mut args = args.to_vec();
    let data = PathBuf::from(take_value(&mut args, "--data").unwrap_or_else(|| "data".into()));
    no_more(&args)?;
    let store = tarot_store::Store::open(&data).map_err(|e| format!("{}: {e}", data.display()))?;
    let n = tarot_store::rebuild_projections(&store, registry).map_err(|e| e.to_string())?;
    store.flush().map_err(|e| e.to_string())?;
    eprintln!("rebuilt the verdicts of {n} games from their events");
    Ok(())
}

/// Removes `--name VALUE` from the arguments and returns the value.
fn take_value(args: &mut Vec<String>, name: &str) -> Option<String> {
    let i = args.iter().position(|a| a == name)?;
    args.remove(i);
    (i < args.len()).then(|| args.remove(i))
}

fn take_flag(args: &mut Vec<String>, name: &str) -> bool {
    let before = args.len();
    args.retain(|a| a != name);
    args.len() != before
}

fn validate(registry: &Registry, args: &[String]) -> ExitCode {
    let mut args = args.to_vec();
    let text = take_flag(&mut args, "--text");
    if args.is_empty() {
        eprintln!("validate needs at least one FILE\n{USAGE}");
        return ExitCode::from(2);
    }
    let mut worst = 0u8;
    for file in &args {
        let outcome = std::fs::read_to_string(file).map_err(|e| format!("cannot read: {e}")).and_then(|json| parse_record(&json)).and_then(|rec| {
            let rules = ruleset(registry, &rec.ruleset)?;
            replay(rules, &rec).map_err(|e| e.to_string())
        });
        match outcome {
            Ok(v) => {
                if v.status == Status::Invalid {
                    worst = worst.max(1);
                }
                if text {
                    println!("{file}: {}", v.to_text());
                } else {
                    let json = serde_json::json!({ "file": file, "verdict": v });
                    println!("{}", serde_json::to_string_pretty(&json).unwrap_or_default());
                }
            }
            Err(e) => {
                worst = 2;
                let json = serde_json::json!({ "file": file, "error": e });
                println!("{}", serde_json::to_string_pretty(&json).unwrap_or_default());
                eprintln!("{file}: {e}");
            }
        }
    }
    ExitCode::from(worst)
}

fn rulesets(registry: &Registry, args: &[String]) -> Result<(), String> {
    let mut args = args.to_vec();
    let json = take_flag(&mut args, "--json");
    match args.first().map(String::as_str) {
        None => {
            for r in registry.all() {
                let players = if r.players.0 == r.players.1 { r.players.0.to_string() } else { format!("{}-{}", r.players.0, r.players.1) };
                let parent = r.chain.get(1).map(|p| format!(" (extends {p})")).unwrap_or_default();
                println!("{:<16} {:<5} {}{parent}", r.id, players, r.title);
            }
            Ok(())
        }
        Some("show") => {
            let id = args.get(1).ok_or("rulesets show needs an ID")?;
            let r = ruleset(registry, id)?;
            let d = describe::describe(r, &BTreeMap::new());
            if json {
                println!("{}", serde_json::to_string_pretty(&d).map_err(|e| e.to_string())?);
            } else {
                print!("{}", d.to_text());
            }
            Ok(())
        }
        Some(other) => Err(format!("unknown rulesets command `{other}`\n{USAGE}")),
    }
}

fn compare_rulesets(registry: &Registry, args: &[String]) -> Result<(), String> {
    let mut args = args.to_vec();
    let json = take_flag(&mut args, "--json");
    let ids = take_value(&mut args, "--rulesets").ok_or("compare needs --rulesets ID,ID...")?;
    let file = if args.is_empty() { None } else { Some(args.remove(0)) };
    no_more(&args)?;
    let rules = named_rulesets(registry, &ids)?;
    if rules.len() < 2 {
        let named = rules.first().map_or("none".to_string(), |r| format!("only {}", r.id));
        return Err(format!("compare needs at least two rulesets (--rulesets a,b); `{ids}` names {named}"));
    }
    if let Some(file) = file {
        let json_text = std::fs::read_to_string(&file).map_err(|e| format!("{file}: {e}"))?;
        let record = parse_record(&json_text).map_err(|e| format!("{file}: {e}"))?;
        let c = tarot_engine::compare::compare_game(&rules, &record);
        if json {
            println!("{}", serde_json::to_string_pretty(&c).map_err(|e| e.to_string())?);
        } else {
            print!("{}", c.to_text());
        }
        return Ok(());
    }
    let c = tarot_engine::compare::compare(&rules);
    if json {
        println!("{}", serde_json::to_string_pretty(&c).map_err(|e| e.to_string())?);
    } else {
        print!("{}", c.to_text());
    }
    Ok(())
}

/// A known ruleset, or an error that lists the known ones.
fn ruleset<'a>(registry: &'a Registry, id: &str) -> Result<&'a tarot_engine::ir::Ruleset, String> {
    registry.get(id).ok_or_else(|| format!("unknown ruleset `{id}`; known: {}", registry.ids().collect::<Vec<_>>().join(", ")))
}

/// The rulesets of a comma-separated list of ids.
fn named_rulesets<'a>(registry: &'a Registry, ids: &str) -> Result<Vec<&'a tarot_engine::ir::Ruleset>, String> {
    ids.split(',').map(str::trim).filter(|s| !s.is_empty()).map(|id| ruleset(registry, id)).collect()
}

fn deal_statistics(registry: &Registry, args: &[String]) -> Result<(), String> {
    let mut args = args.to_vec();
    let json = take_flag(&mut args, "--json");
    let ids = take_value(&mut args, "--rulesets").ok_or("stats needs --rulesets ID,ID...")?;
    let deals = whole(take_value(&mut args, "--deals"), "--deals")?.ok_or("stats needs --deals N")?;
    let seed = whole(take_value(&mut args, "--seed"), "--seed")?.ok_or("stats needs --seed S")?;
    let players = whole(take_value(&mut args, "--players"), "--players")?;
    no_more(&args)?;
    tarot_engine::stats::check_deals(deals).map_err(|e| format!("--deals: {e}"))?;
    let rules = named_rulesets(registry, &ids)?;
    if rules.is_empty() {
        return Err(format!("stats needs at least one ruleset (--rulesets a,b); `{ids}` names none"));
    }
    let mut all = vec![];
    for rules in rules {
        let id = &rules.id;
        let n = players.map(|n| n as usize).unwrap_or(rules.players.0);
        let mut bar = |done: u64| {
            let width = 30;
            let filled = (done * width / deals) as usize;
            eprint!("\r{id:<24} [{}{}] {:>3}%", "#".repeat(filled), " ".repeat(width as usize - filled), done * 100 / deals);
        };
        let s = tarot_engine::stats::deal_stats(rules, n, deals, seed, &mut bar).map_err(|e| e.to_string())?;
        eprintln!();
        all.push(s);
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&all).map_err(|e| e.to_string())?);
    } else {
        print!("{}", tarot_engine::stats::to_text(&all));
    }
    Ok(())
}

fn simulate_games(registry: &Registry, args: &[String]) -> Result<(), String> {
    let mut args = args.to_vec();
    let id = take_value(&mut args, "--ruleset").ok_or("simulate needs --ruleset ID")?;
    let rules = ruleset(registry, &id)?;
    let players = whole(take_value(&mut args, "--players"), "--players")?.map(|n| n as usize).unwrap_or(rules.players.0);
    let games = whole(take_value(&mut args, "--games"), "--games")?.ok_or("simulate needs --games K")?;
    let seed = whole(take_value(&mut args, "--seed"), "--seed")?.ok_or("simulate needs --seed S")?;
    let out = PathBuf::from(take_value(&mut args, "--out").ok_or("simulate needs --out DIR")?);
    let mut steering = String::new();
    let mut sim = if take_flag(&mut args, "--steer") {
        steering.push_str(" --steer");
        simulate::SimOptions::steered()
    } else {
        simulate::SimOptions::default()
    };
    if let Some(c) = take_value(&mut args, "--contract") {
        steering.push_str(&format!(" --contract {c}"));
        sim.contract = match c.as_str() {
            "even" => simulate::ContractChoice::Even,
            "uniform" => simulate::ContractChoice::Uniform,
            _ => simulate::ContractChoice::Only(c),
        };
    }
    let chance = |value: Option<String>, what: &str| -> Result<Option<f64>, String> {
        value.map(|s| s.parse::<f64>().ok().filter(|p| (0.0..=1.0).contains(p)).ok_or(format!("{what} must be a chance from 0 to 1, not `{s}`"))).transpose()
    };
    if let Some(p) = chance(take_value(&mut args, "--hold-excuse"), "--hold-excuse")? {
        steering.push_str(&format!(" --hold-excuse {p}"));
        sim.hold_excuse = p;
    }
    if let Some(p) = chance(take_value(&mut args, "--strong-hand"), "--strong-hand")? {
        steering.push_str(&format!(" --strong-hand {p}"));
        sim.strong_hand = p;
    }
    no_more(&args)?;
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    for i in 0..games {
        let mut rec = simulate::random_game_with(rules, players, &BTreeMap::new(), &sim, &mut rng)?;
        rec.description = Some(format!("Random legal game {i} of `tarot-archive simulate --ruleset {id} --players {players} --seed {seed}{steering}`"));
        let path = out.join(format!("{id}-{players}p-{seed}-{i:05}.json"));
        let json = serde_json::to_string_pretty(&rec).map_err(|e| e.to_string())?;
        std::fs::write(&path, json + "\n").map_err(|e| format!("{}: {e}", path.display()))?;
    }
    eprintln!("wrote {games} games to {}", out.display());
    Ok(())
}

fn import_games(args: &[String]) -> Result<(), String> {
    let mut args = args.to_vec();
    let out = take_value(&mut args, "--out").map(PathBuf::from);
    match args.first().map(String::as_str) {
        Some("tarotclub") => {}
        Some(other) => return Err(format!("unknown import format `{other}`; known: tarotclub")),
        None => return Err("import needs a format: tarotclub".into()),
    }
    if args.len() < 2 {
        return Err("import tarotclub needs at least one FILE".into());
    }
    if let Some(dir) = &out {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    for file in &args[1..] {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
        let label = Path::new(file).file_name().and_then(|n| n.to_str()).unwrap_or(file);
        let imported = import::tarotclub::import(&text, label)?;
        for line in &imported.inferred {
            eprintln!("{label}: inferred: {line}");
        }
        let json = serde_json::to_string_pretty(&imported.record).map_err(|e| e.to_string())?;
        match &out {
            Some(dir) => {
                let path = dir.join(label);
                std::fs::write(&path, json + "\n").map_err(|e| format!("{}: {e}", path.display()))?;
            }
            None => println!("{json}"),
        }
    }
    Ok(())
}

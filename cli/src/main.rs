//! `tarot-archive`: validate recorded games, list and show rulesets, simulate games, import
//! TarotClub deal logs. A thin layer over `tarot-engine`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use rand::SeedableRng;
use tarot_engine::{describe, import_tarotclub, parse_record, random_game_with, ContractChoice, Registry, SimOptions, Status};

/// mimalloc instead of glibc's allocator: a request allocates and frees many small values on the
/// server's worker threads; with mimalloc the server's CPU time per `POST /validate` fell by a sixth.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Validate recorded tarot games against the archive's rulesets, serve the archive over HTTP, and
/// study the rulesets (side by side, deal statistics, simulated games).
#[derive(Parser)]
#[command(name = "tarot-archive", version, propagate_version = true, about, max_term_width = 100)]
#[command(
    after_help = "Exit status of validate: 0 when no game breaks a rule, 1 when one does, 2 when a file cannot be read or parsed, 3 when a rule of its ruleset cannot be worked out on it (the ruleset is broken); of import games: 0 when every game was stored, 1 when one was refused, 2 on failure; of the others: 0, or 2 on failure."
)]
struct Cli {
    /// Read rule files from DIR instead of the built-in ones
    #[arg(long, global = true, value_name = "DIR")]
    rules_dir: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the HTTP API on the archive (the first line on stdout says where it listens)
    Serve {
        /// The address to listen on (port 0: any free port)
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: String,
        #[command(flatten)]
        store: StoreArgs,
        /// Writes need `Authorization: Bearer TOKEN`; reads stay public
        #[arg(long, env = "TAROT_WRITE_TOKEN", value_name = "TOKEN", hide_env_values = true)]
        write_token: Option<String>,
    },
    /// Recompute every stored game's verdict from its events (on every core)
    Rebuild {
        #[command(flatten)]
        store: StoreArgs,
    },
    /// Store recorded games, or convert another program's deal logs
    #[command(subcommand)]
    Import(Import),
    /// Print the OpenAPI document
    Openapi,
    /// Replay recorded games (on every core) and print their verdicts, one JSON line per file, in the
    /// order of the files (a directory's .json files in the order of their names)
    Validate {
        /// Print each verdict as text for people instead of JSON
        #[arg(long)]
        text: bool,
        /// Recorded games (.json), or directories of them
        #[arg(required = true, value_name = "FILE|DIR")]
        files: Vec<String>,
    },
    /// List the rulesets, or show one
    Rulesets {
        #[command(subcommand)]
        show: Option<Rulesets>,
    },
    /// Rulesets side by side, aspect by aspect; with a recorded game, its verdicts under each and
    /// where they first diverge
    Compare {
        /// The rulesets, comma-separated (at least two)
        #[arg(long, value_name = "ID,ID...")]
        rulesets: String,
        /// Print JSON
        #[arg(long)]
        json: bool,
        /// A recorded game to replay under each
        file: Option<String>,
    },
    /// Deal statistics (annulments, declarations, card classes per hand) over N seeded random deals,
    /// side by side; the deal alone, no card is played
    Stats {
        /// The rulesets, comma-separated
        #[arg(long, value_name = "ID,ID...")]
        rulesets: String,
        /// How many deals per ruleset
        #[arg(long, value_name = "N")]
        deals: u64,
        /// The seed of the deals
        #[arg(long, value_name = "S")]
        seed: u64,
        /// The table's size (default: each ruleset's smallest)
        #[arg(long, value_name = "N")]
        players: Option<u64>,
        /// A ruleset option, applied to each ruleset named that has it
        #[arg(long = "option", value_name = "NAME=VALUE", value_parser = name_value)]
        options: Vec<(String, String)>,
        /// Print JSON
        #[arg(long)]
        json: bool,
    },
    /// Write K random legal games
    Simulate(Simulate),
}

#[derive(Subcommand)]
enum Import {
    /// Store recorded games (.json files, or .ndjson with one per line), each refereed and stored with
    /// its verdict; one line of JSON per game on stdout, a progress bar on stderr
    Games {
        /// Files, or directories of .json, .ndjson and .jsonl files
        #[arg(required = true, value_name = "DIR|FILE")]
        paths: Vec<String>,
        #[command(flatten)]
        store: StoreArgs,
    },
    /// Convert TarotClub deal logs to this archive's records
    Tarotclub {
        /// TarotClub deal logs
        #[arg(required = true, value_name = "FILE")]
        files: Vec<String>,
        /// Write each record into DIR (else print them)
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
enum Rulesets {
    /// The resolved rules of a ruleset, clause by clause, with sources
    Show {
        id: String,
        /// Print JSON
        #[arg(long)]
        json: bool,
    },
}

/// Where the archive is.
#[derive(Args)]
struct StoreArgs {
    /// The sled archive in DIR (default ./data)
    #[arg(long, value_name = "DIR", conflicts_with = "store")]
    data: Option<PathBuf>,
    /// The PostgreSQL database at URL (postgres://...)
    #[arg(long, value_name = "URL")]
    store: Option<String>,
}

#[derive(Args)]
struct Simulate {
    /// The ruleset
    #[arg(long, value_name = "ID")]
    ruleset: String,
    /// The table's size (default: the ruleset's smallest)
    #[arg(long, value_name = "N")]
    players: Option<usize>,
    /// How many games
    #[arg(long, value_name = "K")]
    games: u64,
    /// The seed
    #[arg(long, value_name = "S")]
    seed: u64,
    /// Where to write the games
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Exercise the rare cases: every contract evenly, strong hands, the Excuse and the cards that may be withheld held back
    #[arg(long)]
    steer: bool,
    /// Which contracts are bid: one contract, `even` or `uniform`
    #[arg(long, value_name = "ID|even|uniform")]
    contract: Option<String>,
    /// The chance per game (0 to 1) that the Excuse is held back
    #[arg(long, value_name = "P", value_parser = chance("--hold-excuse"))]
    hold_excuse: Option<f64>,
    /// The chance per deal (0 to 1) of a strong hand
    #[arg(long, value_name = "P", value_parser = chance("--strong-hand"))]
    strong_hand: Option<f64>,
    /// A ruleset option
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = name_value)]
    options: Vec<(String, String)>,
    /// Make each deal one of a match under way (pots and standing drawn)
    #[arg(long)]
    carry: bool,
    /// The chance per deal (0 to 1) that the match is near its target, where a call-out to it can be made
    #[arg(long, value_name = "P", value_parser = chance("--match-end"))]
    match_end: Option<f64>,
}

/// `NAME=VALUE`.
fn name_value(s: &str) -> Result<(String, String), String> {
    s.split_once('=').map(|(n, v)| (n.to_string(), v.to_string())).ok_or(format!("--option takes NAME=VALUE, not `{s}`"))
}

/// A chance from 0 to 1, for the option `what`.
fn chance(what: &'static str) -> impl Fn(&str) -> Result<f64, String> + Clone {
    move |s: &str| s.parse::<f64>().ok().filter(|p| (0.0..=1.0).contains(p)).ok_or(format!("{what} must be a chance from 0 to 1, not `{s}`"))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if !matches!(cli.command, Command::Serve { .. }) {
        // An offline command piped into `head` stops quietly when the pipe closes, as command-line
        // tools do, instead of panicking on a failed print. (The server keeps Rust's default, which
        // turns a closed socket into an error it handles.)
        // SAFETY: restoring a signal's default disposition at startup, before any thread exists.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        }
    }
    let registry = match &cli.rules_dir {
        Some(dir) => Registry::from_dir(dir),
        None => Registry::builtin().map_err(|d| d.to_string()),
    };
    let registry = match registry {
        Ok(r) => r,
        Err(e) => {
            eprintln!("the rulesets do not compile:\n{e}");
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Validate { text, files } => return validate(&registry, files, text),
        Command::Serve { addr, store, write_token } => serve(registry, &addr, store, write_token),
        Command::Rebuild { store } => rebuild(&registry, store),
        Command::Openapi => {
            print!("{}", tarot_api::openapi::openapi_json());
            Ok(())
        }
        Command::Rulesets { show } => rulesets(&registry, show),
        Command::Simulate(args) => simulate_games(&registry, args),
        Command::Compare { rulesets, json, file } => compare_rulesets(&registry, &rulesets, json, file),
        Command::Stats { rulesets, deals, seed, players, options, json } => deal_statistics(&registry, &rulesets, deals, seed, players, options, json),
        Command::Import(Import::Games { paths, store }) => return import_into_store(&registry, &paths, store),
        Command::Import(Import::Tarotclub { files, out }) => import_games(&files, out),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}

fn serve(registry: Registry, addr: &str, store: StoreArgs, write_token: Option<String>) -> Result<(), String> {
    let (store_at, open) = store.opener();
    let write_token = write_token.filter(|t| !t.is_empty());
    // Colours for a terminal only: a log file gets plain text.
    let colours = std::io::IsTerminal::is_terminal(&std::io::stderr());
    tracing_subscriber::fmt().with_target(false).with_ansi(colours).with_writer(std::io::stderr).init();
    let store = std::sync::Arc::new(open()?);
    let listener = std::net::TcpListener::bind(addr).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let bound = listener.local_addr().map_err(|e| e.to_string())?;
    // The first line on stdout says where the server is: tests that start it on port 0 read it.
    println!("listening on http://{bound}");
    use std::io::Write;
    let _ = std::io::stdout().flush();
    tracing::info!("serving the archive in {store_at} on http://{bound}{}", if write_token.is_some() { " (writes need the token)" } else { "" });
    let state = tarot_api::AppState::new(store.clone(), std::sync::Arc::new(registry), write_token);
    // actix-web stops gracefully on SIGINT and SIGTERM: requests in flight finish, then the store
    // is flushed once more before the process exits.
    actix_web::rt::System::new().block_on(async move { tarot_api::run(listener, state)?.await }).map_err(|e| e.to_string())?;
    store.flush().map_err(|e| e.to_string())?;
    tracing::info!("stopped; the archive is flushed");
    Ok(())
}

impl StoreArgs {
    /// Where the archive is (`--store URL`, else `--data DIR`, else `./data`): a description of it
    /// and how to open it.
    fn opener(self) -> (String, impl FnOnce() -> Result<tarot_store::Store, String>) {
        let (url, data) = (self.store, self.data.unwrap_or_else(|| PathBuf::from("data")));
        let at = match &url {
            // The password, if any, stays out of the log.
            Some(url) => format!("PostgreSQL at {}", url.split_once('@').map_or(url.as_str(), |(_, host)| host)),
            None => data.display().to_string(),
        };
        let described = at.clone();
        let open = move || tarot_store::Store::open_either(url.as_deref(), &data).map_err(|e| format!("{at}: {e}"));
        (described, open)
    }
}

fn rebuild(registry: &Registry, store: StoreArgs) -> Result<(), String> {
    let (_, open) = store.opener();
    let store = open()?;
    let n = tarot_api::usecases::rebuild(&store, registry).map_err(|e| e.to_string())?;
    eprintln!("rebuilt the verdicts of {n} games from their events");
    Ok(())
}

/// How many files `validate` replays at a time, on every core, before printing their verdicts in
/// order: enough to keep the cores busy, few enough to keep only a few verdicts in memory.
const VALIDATE_CHUNK: usize = 1024;

fn validate(registry: &Registry, args: Vec<String>, text: bool) -> ExitCode {
    use rayon::prelude::*;
    // A directory stands for its .json files, in order.
    let mut files = vec![];
    for arg in args {
        if Path::new(&arg).is_dir() {
            match record_files(std::slice::from_ref(&arg)) {
                Ok(inside) => files.extend(inside.into_iter().map(|p| p.display().to_string())),
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::from(2);
                }
            }
        } else {
            files.push(arg);
        }
    }
    // A chunk's verdicts are printed by a second thread while the next chunk is replayed, so that
    // every core replays all the time; at most one chunk waits between them.
    let (to_print, printed) = std::sync::mpsc::sync_channel::<Vec<(u8, String, Option<String>)>>(1);
    let worst = std::thread::scope(|scope| {
        let printer = scope.spawn(move || {
            use std::io::Write;
            let mut worst = 0u8;
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            for outputs in printed {
                for (code, printed, problem) in outputs {
                    worst = worst.max(code);
                    let _ = writeln!(out, "{printed}");
                    if let Some(problem) = problem {
                        // In order with the verdicts on a terminal that shows both.
                        let _ = out.flush();
                        eprintln!("{problem}");
                    }
                }
                let _ = out.flush();
            }
            worst
        });
        for chunk in files.chunks(VALIDATE_CHUNK) {
            let outputs: Vec<(u8, String, Option<String>)> = chunk.par_iter().map(|file| validate_one(registry, file, text)).collect();
            if to_print.send(outputs).is_err() {
                break;
            }
        }
        drop(to_print);
        printer.join().expect("the printing thread does not panic")
    });
    ExitCode::from(worst)
}

/// One file's verdict: its exit code, what to print, and what to say on stderr.
fn validate_one(registry: &Registry, file: &str, text: bool) -> (u8, String, Option<String>) {
    let outcome = std::fs::read_to_string(file).map_err(|e| format!("cannot read: {e}")).and_then(|json| parse_record(&json)).map_err(|e| (2, e, None)).and_then(|rec| {
        // A rule that cannot be worked out on the game is the ruleset's mistake, not the file's.
        tarot_api::usecases::referee(registry, &rec).map_err(|refusal| match refusal {
            tarot_api::usecases::Refusal::Replay(e) => (if e.ruleset_fault.is_some() { 3 } else { 2 }, e.to_string(), e.ruleset_fault),
            refusal => (2, refusal.to_string(), None),
        })
    });
    match outcome {
        Ok(v) => {
            let code = u8::from(v.status == Status::Invalid);
            if text {
                (code, format!("{file}: {}", v.to_text()), None)
            } else {
                let json = serde_json::json!({ "file": file, "verdict": v });
                (code, serde_json::to_string(&json).unwrap_or_default(), None)
            }
        }
        // With --text, the error is a line of the text like the verdicts, once: on stdout, in order.
        Err((code, e, _)) if text => (code, format!("{file}: error: {e}"), None),
        Err((code, e, fault)) => {
            let mut json = serde_json::json!({ "file": file, "error": e });
            if let Some(fault) = fault {
                json["broken_ruleset"] = serde_json::json!(fault);
            }
            (code, serde_json::to_string(&json).unwrap_or_default(), Some(format!("{file}: {e}")))
        }
    }
}

/// How many games `import games` referees (on every core) and stores at a time: each batch is one
/// transaction, on disk before its lines are printed.
const IMPORT_BATCH: usize = 1000;

/// `import games DIR|FILE... [--data DIR | --store URL]`: every record refereed and stored with its
/// verdict, one line of JSON per record on stdout (its id, version, status and whether it was new,
/// or why it was refused), a progress bar on stderr.
fn import_into_store(registry: &Registry, paths: &[String], store: StoreArgs) -> ExitCode {
    keep_freed_memory();
    match import_records(registry, paths, store) {
        Ok(refused) => ExitCode::from(u8::from(refused > 0)),
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}

/// Tells mimalloc to keep the memory freed for reuse rather than give it back to the system: an
/// import frees and allocates batches of megabytes, and memory given back comes back as fresh
/// (huge) pages that the kernel zeroes on first touch. A profile of an import of 20,000 games had
/// a quarter of its samples in the kernel's `clear_page`; without purging, its minor page faults
/// fell from about 50,000 to 700. For a command that ends when its work is done, not the server.
///
/// And without transparent huge pages for this process (`prctl(PR_SET_THP_DISABLE)`; mimalloc's
/// own option is read only when it starts): each first touch of a 2 MB page had the kernel find,
/// often by compacting memory, and zero 2 MB. On a machine whose memory other work had fragmented,
/// an import of 20,000 games took 2.60-2.67 s of CPU with them and 2.38-2.74 s without (medians
/// 2.64 and 2.42 s, 4 runs each in turns; system time 0.82-0.94 s against 0.46-0.65 s). With
/// memory not fragmented, huge pages cost less (0.38 s of system time in an earlier run).
fn keep_freed_memory() {
    extern "C" {
        fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
    }
    /// `mi_option_purge_delay` in mimalloc.h (v2 and v3): -1 never purges.
    const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;
    // SAFETY: sets one of mimalloc's options, which it reads when it decides to purge; and a flag
    // of this process for the kernel, which only changes the size of the pages it is given.
    unsafe {
        mi_option_set(MI_OPTION_PURGE_DELAY, -1);
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

fn import_records(registry: &Registry, paths: &[String], store: StoreArgs) -> Result<usize, String> {
    use std::io::Write;
    use tarot_api::usecases::import::{Line, Outcome};
    let (_, open) = store.opener();
    let files = record_files(paths)?;
    let store = open()?;
    let total: u64 = files.iter().map(|f| std::fs::metadata(f).map_or(0, |m| m.len())).sum();
    let bar =
        indicatif::ProgressBar::new(total).with_style(indicatif::ProgressStyle::with_template("{bar:40} {percent:>3}% {msg} ({elapsed}, {eta} left)").expect("a valid template"));
    // The files a batch at a time, each game with where it comes from (the file, and the line of an
    // .ndjson file), for the import use case to referee and store.
    let read = |send: &mut dyn FnMut(Vec<Line<String>>) -> bool| -> Result<(), String> {
        let mut batch: Vec<Line<String>> = Vec::with_capacity(IMPORT_BATCH);
        for file in &files {
            let failed = |e: std::io::Error| format!("{}: {e}", file.display());
            let name = file.display().to_string();
            if file.extension().is_some_and(|e| e == "ndjson" || e == "jsonl") {
                // Line by line, each read into its own buffer: the whole file read first (100 MB for
                // 20,000 games) was fresh memory that the kernel zeroed, then copied line by line,
                // about a tenth of an import's CPU in a profile.
                let mut reader = std::io::BufReader::with_capacity(1 << 20, std::fs::File::open(file).map_err(failed)?);
                for n in 1.. {
                    let mut line = Vec::new();
                    if std::io::BufRead::read_until(&mut reader, b'\n', &mut line).map_err(failed)? == 0 {
                        break;
                    }
                    // As `str::lines` splits them: "\n" or "\r\n" ends a line.
                    if line.ends_with(b"\n") {
                        line.pop();
                        if line.ends_with(b"\r") {
                            line.pop();
                        }
                    }
                    if line.iter().all(u8::is_ascii_whitespace) {
                        continue;
                    }
                    batch.push(Line { source: format!("{name}:{n}"), first_line: n, text: line });
                    if batch.len() == IMPORT_BATCH && !send(std::mem::replace(&mut batch, Vec::with_capacity(IMPORT_BATCH))) {
                        return Ok(());
                    }
                }
            } else {
                let text = std::fs::read(file).map_err(failed)?;
                batch.push(Line { source: name, first_line: 1, text });
                if batch.len() == IMPORT_BATCH && !send(std::mem::replace(&mut batch, Vec::with_capacity(IMPORT_BATCH))) {
                    return Ok(());
                }
            }
        }
        if !batch.is_empty() {
            send(batch);
        }
        Ok(())
    };
    // Each batch's lines once it is on disk, in order; the bar moves by the bytes of its games.
    let mut out = std::io::BufWriter::new(std::io::stdout());
    let bar = &bar;
    let report = move |games: Vec<(String, Outcome)>, bytes: u64, counts: tarot_api::usecases::import::Counts| -> Result<(), String> {
        for (source, outcome) in games {
            let line = match outcome {
                Outcome::Stored { appended, new, status } => {
                    serde_json::json!({ "source": source, "id": appended.game, "version": appended.version, "status": status, "new": new })
                }
                Outcome::Refused(e) => serde_json::json!({ "source": source, "error": e }),
            };
            writeln!(out, "{line}").map_err(|e| e.to_string())?;
        }
        out.flush().map_err(|e| e.to_string())?;
        bar.inc(bytes);
        bar.set_message(format!("{} stored, {} already there, {} refused", counts.stored, counts.again, counts.refused));
        Ok(())
    };
    let counts = tarot_api::usecases::import::import(&store, registry, read, report).map_err(|e| e.to_string())?;
    bar.finish();
    eprintln!("{} games stored, {} already stored, {} refused", counts.stored, counts.again, counts.refused);
    Ok(counts.refused)
}

/// The files named, with the `.json`, `.ndjson` and `.jsonl` files of each directory named, in order.
fn record_files(args: &[String]) -> Result<Vec<PathBuf>, String> {
    let mut files = vec![];
    for arg in args {
        let path = PathBuf::from(arg);
        if path.is_dir() {
            // The directory listing says which entries are files: no stat of each (over a third of
            // `validate`'s serial time in a profile over 10,000 files); a link is followed.
            let mut inside: Vec<PathBuf> = std::fs::read_dir(&path)
                .map_err(|e| format!("{arg}: {e}"))?
                .filter_map(|e| e.ok())
                .filter(|e| e.path().extension().is_some_and(|e| e == "json" || e == "ndjson" || e == "jsonl"))
                .filter(|e| match e.file_type() {
                    Ok(t) if t.is_symlink() => e.path().is_file(),
                    Ok(t) => t.is_file(),
                    Err(_) => e.path().is_file(),
                })
                .map(|e| e.path())
                .collect();
            inside.sort();
            if inside.is_empty() {
                return Err(nothing_to_read(arg, &path));
            }
            files.extend(inside);
        } else if path.is_file() {
            files.push(path);
        } else {
            return Err(format!("{arg}: no such file or directory"));
        }
    }
    Ok(files)
}

/// Why a directory named gives no game: what it holds instead (folders, other files), so that the
/// user can name what holds the games. A directory is read one level deep, as `ls` lists it.
fn nothing_to_read(arg: &str, path: &Path) -> String {
    let mut folders: Vec<String> = vec![];
    let mut others = 0usize;
    for entry in std::fs::read_dir(path).into_iter().flatten().filter_map(|e| e.ok()) {
        if entry.path().is_dir() {
            folders.push(entry.file_name().to_string_lossy().into_owned());
        } else {
            others += 1;
        }
    }
    folders.sort();
    let files = match others {
        0 => "no file".to_string(),
        1 => "1 other file".to_string(),
        n => format!("{n} other files"),
    };
    if folders.is_empty() {
        return format!("{arg}: no .json, .ndjson or .jsonl file here ({files})");
    }
    let shown: Vec<&str> = folders.iter().take(5).map(String::as_str).collect();
    let more = if folders.len() > shown.len() { format!(" and {} more", folders.len() - shown.len()) } else { String::new() };
    let first = Path::new(arg).join(&folders[0]);
    format!(
        "{arg}: no .json, .ndjson or .jsonl file here, but {} folder{} ({}{more}) and {files}; a directory is read one level deep: name the folders that hold the games (e.g. {})",
        folders.len(),
        if folders.len() == 1 { "" } else { "s" },
        shown.join(", "),
        first.display()
    )
}

fn rulesets(registry: &Registry, show: Option<Rulesets>) -> Result<(), String> {
    match show {
        None => {
            // Columns as wide as their widest entry (ids and table sizes of any rule files read).
            let players = |r: &tarot_engine::ir::Ruleset| if r.players.0 == r.players.1 { r.players.0.to_string() } else { format!("{}-{}", r.players.0, r.players.1) };
            let width = registry.all().map(|r| r.id.chars().count()).max().unwrap_or(0);
            let table = registry.all().map(|r| players(r).len()).max().unwrap_or(0).max(5);
            for r in registry.all() {
                let parent = r.chain.get(1).map(|p| format!(" (extends {p})")).unwrap_or_default();
                println!("{:<width$} {:<table$} {}{parent}", r.id, players(r), r.title);
            }
            Ok(())
        }
        Some(Rulesets::Show { id, json }) => {
            let r = ruleset(registry, &id)?;
            let d = describe(r, &BTreeMap::new());
            if json {
                println!("{}", serde_json::to_string_pretty(&d).map_err(|e| e.to_string())?);
            } else {
                print!("{}", d.to_text());
            }
            Ok(())
        }
    }
}

fn compare_rulesets(registry: &Registry, ids: &str, json: bool, file: Option<String>) -> Result<(), String> {
    let rules = named_rulesets(registry, ids)?;
    if rules.len() < 2 {
        let named = rules.first().map_or("none".to_string(), |r| format!("only {}", r.id));
        return Err(format!("compare needs at least two rulesets (--rulesets a,b); `{ids}` names {named}"));
    }
    if let Some(file) = file {
        let json_text = std::fs::read_to_string(&file).map_err(|e| format!("{file}: {e}"))?;
        let record = parse_record(&json_text).map_err(|e| format!("{file}: {e}"))?;
        let c = tarot_engine::compare_game(&rules, &record);
        if json {
            println!("{}", serde_json::to_string_pretty(&c).map_err(|e| e.to_string())?);
        } else {
            print!("{}", c.to_text());
        }
        return Ok(());
    }
    let c = tarot_engine::compare(&rules);
    if json {
        println!("{}", serde_json::to_string_pretty(&c).map_err(|e| e.to_string())?);
    } else {
        print!("{}", c.to_text());
    }
    Ok(())
}

/// A known ruleset, or an error that lists the known ones.
fn ruleset<'a>(registry: &'a Registry, id: &str) -> Result<&'a tarot_engine::ir::Ruleset, String> {
    tarot_api::usecases::ruleset(registry, id).map_err(|e| e.to_string())
}

/// The rulesets of a comma-separated list of ids.
fn named_rulesets<'a>(registry: &'a Registry, ids: &str) -> Result<Vec<&'a tarot_engine::ir::Ruleset>, String> {
    ids.split(',').map(str::trim).filter(|s| !s.is_empty()).map(|id| ruleset(registry, id)).collect()
}

fn deal_statistics(registry: &Registry, ids: &str, deals: u64, seed: u64, players: Option<u64>, given: Vec<(String, String)>, json: bool) -> Result<(), String> {
    // Options as the API's `options` takes them: each applies to every ruleset named that has it.
    tarot_engine::check_deals(deals).map_err(|e| format!("--deals: {e}"))?;
    let rules = named_rulesets(registry, ids)?;
    if rules.is_empty() {
        return Err(format!("stats needs at least one ruleset (--rulesets a,b); `{ids}` names none"));
    }
    if let Some((name, _)) = given.iter().find(|(n, _)| !rules.iter().any(|r| r.options.iter().any(|o| &o.name == n))) {
        return Err(format!("--option {name}: no ruleset named has an option `{name}`"));
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
        let own: Vec<(String, String)> = given.iter().filter(|(n, _)| rules.options.iter().any(|o| &o.name == n)).cloned().collect();
        let options = tarot_engine::read_options(rules, &own).map_err(|e| format!("--option: {e}"))?;
        let s = tarot_engine::deal_stats_with(rules, n, &options, deals, seed, &mut bar).map_err(|e| e.to_string())?;
        eprintln!();
        all.push(s);
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&all).map_err(|e| e.to_string())?);
    } else {
        print!("{}", tarot_engine::stats_to_text(&all));
    }
    Ok(())
}

fn simulate_games(registry: &Registry, args: Simulate) -> Result<(), String> {
    let Simulate { ruleset: id, players, games, seed, out, steer, contract, hold_excuse, strong_hand, options: given, carry, match_end } = args;
    let rules = ruleset(registry, &id)?;
    let players = players.unwrap_or(rules.players.0);
    let mut steering = String::new();
    let mut sim = if steer {
        steering.push_str(" --steer");
        SimOptions::steered()
    } else {
        SimOptions::default()
    };
    if let Some(c) = contract {
        steering.push_str(&format!(" --contract {c}"));
        sim.contract = match c.as_str() {
            "even" => ContractChoice::Even,
            "uniform" => ContractChoice::Uniform,
            _ => ContractChoice::Only(c),
        };
    }
    if let Some(p) = hold_excuse {
        steering.push_str(&format!(" --hold-excuse {p}"));
        sim.hold_excuse = p;
    }
    if let Some(p) = strong_hand {
        steering.push_str(&format!(" --strong-hand {p}"));
        sim.strong_hand = p;
    }
    if carry {
        steering.push_str(" --carry");
        sim.carry = true;
    }
    if let Some(p) = match_end {
        steering.push_str(&format!(" --match-end {p}"));
        sim.match_end = p;
    }
    // Options as a record gives them: a string, or a number or true/false where the text reads as one.
    let mut options = BTreeMap::new();
    for (name, value) in given {
        steering.push_str(&format!(" --option {name}={value}"));
        let value = serde_json::from_str(&value).unwrap_or(serde_json::Value::String(value));
        options.insert(name, value);
    }
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    for i in 0..games {
        let mut rec = random_game_with(rules, players, &options, &sim, &mut rng)?;
        rec.description = Some(format!("Random legal game {i} of `tarot-archive simulate --ruleset {id} --players {players} --seed {seed}{steering}`"));
        let path = out.join(format!("{id}-{players}p-{seed}-{i:05}.json"));
        let json = serde_json::to_string_pretty(&rec).map_err(|e| e.to_string())?;
        std::fs::write(&path, json + "\n").map_err(|e| format!("{}: {e}", path.display()))?;
    }
    eprintln!("wrote {games} games to {}", out.display());
    Ok(())
}

fn import_games(files: &[String], out: Option<PathBuf>) -> Result<(), String> {
    if let Some(dir) = &out {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    for file in files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
        let label = Path::new(file).file_name().and_then(|n| n.to_str()).unwrap_or(file);
        let imported = import_tarotclub(&text, label)?;
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

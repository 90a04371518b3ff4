//! `tarot-archive`: validate recorded games, list and show rulesets, simulate games, import
//! TarotClub deal logs. A thin layer over `tarot-engine`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

mod records;
mod study;

use records::{import_games, import_into_store, validate};
use study::{compare_rulesets, deal_statistics, rulesets, simulate_games};
use tarot_engine::Registry;

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

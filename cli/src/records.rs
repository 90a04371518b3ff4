//! The recorded games: `validate` (files, folders or standard input, judged on every core and
//! printed in order), `import games` (into the archive, in atomic batches) and `import tarotclub`
//! (TarotClub deal logs made records).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use tarot_engine::{import_tarotclub, parse_record, Registry, Status};

use crate::StoreArgs;

/// How many files `validate` replays at a time, on every core, before printing their verdicts in
/// order: enough to keep the cores busy, few enough to keep only a few verdicts in memory.
const VALIDATE_CHUNK: usize = 1024;

pub(crate) fn validate(registry: &Registry, args: Vec<String>, text: bool) -> ExitCode {
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
pub(crate) fn import_into_store(registry: &Registry, paths: &[String], store: StoreArgs) -> ExitCode {
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

pub(crate) fn import_games(files: &[String], out: Option<PathBuf>) -> Result<(), String> {
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

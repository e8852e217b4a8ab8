//! The bot arena (docs/bots.md, BENCHMARKS.md "Bots"): plays bots against
//! each other with the rules engine alone, each bot deciding from its own
//! view and history exactly as the server's worker does, and prints the
//! score and the think time per move.
//!
//! ```text
//! cargo run --release -p domain --example arena -- tactician random 100
//! cargo run --release -p domain --example arena -- tactician greedy 100 --variant duel --think-ms 50
//! ```
//!
//! Arguments: the first bot, the second bot (`random`, `greedy`,
//! `tactician`), the number of games (default 100), then optionally
//! `--variant classic|barrage|duel`, `--max-plies N` (default 3000: a game
//! still on then is a draw), `--think-ms N` (default 500, the per-move
//! bound handed to the bot) and `--seed N`. The first bot plays red in
//! even games and blue in odd ones; game `i` uses seed `seed + i`.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use domain::bot::{Bot, Situation};
use domain::{Action, Color, Game, MoveView, Rules, Variant, Viewer};

struct Options {
    first: Bot,
    second: Bot,
    games: u64,
    variant: Variant,
    max_plies: u32,
    think: Duration,
    seed: u64,
}

fn bot(name: &str) -> Result<Bot, String> {
    match name {
        "random" => Ok(Bot::Random),
        "greedy" => Ok(Bot::Greedy),
        "tactician" => Ok(Bot::Tactician),
        other => Err(format!("unknown bot {other:?} (random, greedy, tactician)")),
    }
}

fn options() -> Result<Options, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut positional = Vec::new();
    let mut options = Options {
        first: Bot::Tactician,
        second: Bot::Random,
        games: 100,
        variant: Variant::Classic,
        max_plies: 3000,
        think: Duration::from_millis(500),
        seed: 1,
    };
    let mut i = 0;
    while i < args.len() {
        let value = || {
            args.get(i + 1)
                .cloned()
                .ok_or_else(|| format!("{} needs a value", args[i]))
        };
        let number = |text: String| {
            text.parse::<u64>()
                .map_err(|_| format!("{text:?} is not a number"))
        };
        match args[i].as_str() {
            "--variant" => {
                options.variant = value()?.parse().map_err(|e| format!("{e}"))?;
                i += 1;
            }
            "--max-plies" => {
                options.max_plies = u32::try_from(number(value()?)?).map_err(|e| e.to_string())?;
                i += 1;
            }
            "--think-ms" => {
                options.think = Duration::from_millis(number(value()?)?);
                i += 1;
            }
            "--seed" => {
                options.seed = number(value()?)?;
                i += 1;
            }
            other => positional.push(other.to_owned()),
        }
        i += 1;
    }
    if let Some(name) = positional.first() {
        options.first = bot(name)?;
    }
    if let Some(name) = positional.get(1) {
        options.second = bot(name)?;
    }
    if let Some(n) = positional.get(2) {
        options.games = number_arg(n)?;
    }
    Ok(options)
}

fn number_arg(text: &str) -> Result<u64, String> {
    text.parse()
        .map_err(|_| format!("{text:?} is not a number"))
}

/// Think times of one bot, in microseconds.
#[derive(Default)]
struct Times(Vec<u64>);

impl Times {
    fn summary(&mut self) -> String {
        if self.0.is_empty() {
            return "no moves".into();
        }
        self.0.sort_unstable();
        let at = |q: f64| self.0[((self.0.len() - 1) as f64 * q) as usize];
        let mean = self.0.iter().sum::<u64>() / self.0.len() as u64;
        format!(
            "{} moves, mean {} us, p50 {} us, p99 {} us, max {} us",
            self.0.len(),
            mean,
            at(0.5),
            at(0.99),
            self.0[self.0.len() - 1]
        )
    }
}

/// Plays one game; returns the winner (None: a draw) and the plies.
fn play(options: &Options, index: u64, times: &mut [Times; 2]) -> (Option<usize>, u32) {
    let seed = options.seed.wrapping_add(index);
    let rules = Rules {
        max_plies: Some(options.max_plies),
        ..Rules::default()
    };
    // Player 0 is the first bot.
    let first_color = if index.is_multiple_of(2) {
        Color::Red
    } else {
        Color::Blue
    };
    let bot_of = |color: Color| {
        if color == first_color {
            (0, options.first)
        } else {
            (1, options.second)
        }
    };
    let setup = |color: Color| bot_of(color).1.setup(options.variant, color, seed);
    let Ok(mut game) = Game::new(
        options.variant,
        rules,
        setup(Color::Red),
        setup(Color::Blue),
    ) else {
        return (None, 0);
    };
    let mut histories: [Vec<MoveView>; 2] = [Vec::new(), Vec::new()];
    while game.result().is_none() {
        let color = game.turn();
        let (player, bot) = bot_of(color);
        let view = game.view(Viewer::Player(color));
        let situation = Situation {
            variant: options.variant,
            rules: &rules,
            color,
            view: &view,
            history: &histories[color.index()],
        };
        let started = Instant::now();
        let limit = started + options.think;
        let chosen = bot.choose_move(&situation, seed ^ u64::from(game.ply()) << 20, &mut || {
            Instant::now() >= limit
        });
        times[player].0.push(started.elapsed().as_micros() as u64);
        let Some(m) = chosen else {
            break;
        };
        let Ok(applied) = game.apply(color, Action::play(m.from, m.to)) else {
            eprintln!("game {index}: {bot:?} chose an illegal move {m}");
            break;
        };
        if let Some(record) = applied.record {
            for c in Color::ALL {
                histories[c.index()].push(game.move_view(&record, Viewer::Player(c)));
            }
        }
    }
    let winner = game.result().and_then(|r| r.winner).map(|w| bot_of(w).0);
    (winner, game.ply())
}

fn main() -> ExitCode {
    let options = match options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("arena: {message}");
            return ExitCode::FAILURE;
        }
    };
    let mut times = [Times::default(), Times::default()];
    let mut score = [0u64; 3];
    let mut plies = Vec::new();
    let started = Instant::now();
    for index in 0..options.games {
        let (winner, n) = play(&options, index, &mut times);
        score[winner.unwrap_or(2)] += 1;
        plies.push(n);
    }
    plies.sort_unstable();
    println!(
        "{:?} vs {:?}, {} {} games (max {} plies, think bound {} ms, seeds {}..{}):",
        options.first,
        options.second,
        options.games,
        options.variant,
        options.max_plies,
        options.think.as_millis(),
        options.seed,
        options.seed + options.games
    );
    println!(
        "  {:?} won {}, {:?} won {}, {} drawn; plies per game: median {}, max {}; {:.1} s",
        options.first,
        score[0],
        options.second,
        score[1],
        score[2],
        plies.get(plies.len() / 2).copied().unwrap_or(0),
        plies.last().copied().unwrap_or(0),
        started.elapsed().as_secs_f64()
    );
    println!("  {:?} think time: {}", options.first, times[0].summary());
    println!("  {:?} think time: {}", options.second, times[1].summary());
    ExitCode::SUCCESS
}

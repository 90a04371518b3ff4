//! The second Cego scorer's local versions (`common/cego.rs` reads a record with them): the scores
//! pagat.com gives for the Bräunlingen Ministranten and for Oberwolfach (P "Ministranten Version",
//! "Oberwolfach Version"), written from the page, with nothing from the rule files.
//!
//! - The Ministranten: a normal game is |points - 35| times the factor, rounded to the nearest 5, at
//!   least 5 won or lost (the Bürgermeister's 35 loses 5); the factors are the Gasthaus zum Löwen's
//!   (Solo 2, lost 1; Cego 1 up to Kleiner Mann 6), a Gegensolo 4 won and 2 lost. Ulti 70, Piccolo 40
//!   (35 in some circles: the record's option `piccolo`), Bettel 50, Räuber 30, Dresch 70. The loser
//!   of a Räuber (the most card points; Vorhand alone if he is among those tied) pays each other
//!   player his card points rounded to the nearest 5 where they are more than 30, else 30; Vorhand 60,
//!   or twice his rounded points if that is more. In a Dresch the winner of the last trick pays each
//!   other player 70. In the Leere games the empty cards kept lead the first trick(s), and the
//!   bidder leads the trick after them.
//! - The Ministranten at three (P "Three Player Version": "the equivalent game, without Räuber or
//!   Dresch, but with the possibility of challenging"): their scores and penalties, the hearts 4, the
//!   diamonds 4 and the spades 7 taken out; the pack, deal and claim otherwise the Gasthaus's game for
//!   three's (`common/cego.rs`).
//! - The Ministranten's penalties (P "Penalties"): a revoke (not following suit, or, void of it, no
//!   Trock while holding one) or a Legage of another number of cards than the cego taken up ends the
//!   deal, the offender paying 70 to each other player (`Deal`).
//! - The Ministranten's Geregelter Räuber (P "The possible Games"; Vorhand's choice where the record's
//!   option `geregelter_rauber` is yes), paid as the Räuber: in each of the first three tricks every
//!   player plays a trump, whatever is led; the holder of the Gstieß plays it to the first, of the 21
//!   to the second, of the kleiner Mann to the third; a player whose trumps are too few (those left owed
//!   to a later trick) plays Brettli ("with only the 16 and the 1, the 16 to the first trick, a Brettli
//!   to the second, the 1 to the third"); with neither, any card but those owed later (a reading).
//! - In every local version the cards kept in the Leere games are empty cards (Brettli), never a
//!   court in their stead.
//! - Oberwolfach (three players): a Solo's factor 1 won, 2 lost; the others the Gasthaus's, one more
//!   over a Solo; the base value is |points - 35| in whole fives, plus one (1 to 8), times the factor,
//!   not rounded; 35 is lost at base 1. The claim of a skinned Solo pays the game lost without a trick,
//!   base 8 times the factor. Kleiner Mann's Geiß may be taken back for the last trick unless the
//!   record's option `geiss_frei` says otherwise.
//! - Oberwolfach at four: the same normal games and claim, the Solo hand eight trumps or seven with two
//!   above the 17 and two suits void; Piccolo 10, Bettel 15, the Räuber 5 (its loser paying each
//!   other player 5, Vorhand 10).
//! - The Schmidt leaflet (P "Schmidt Version"): Oberwolfach's game for three, its scores and claim,
//!   but the Geiß led to the first trick unless the record's option `geiss_frei` lets it be taken back
//!   for any trick; the Leere games' cards kept Brettli unless the option `leere_ersatz` lets others
//!   stand in, and led together in the Zwei games only where the option `leere_lead` binds them; a
//!   Solo's factor 1 won and 2 lost, or 2 won and 1 lost where the option `solo_factor` is "won-2".
//! - Ichenheim (three players): the Gasthaus's scores, but the Ulti 20 and the Solodu, a Solo bound to
//!   take every trick, 64.
//! - The count in twos (P "Cards counted in twos"): the cards counted in pairs, 40 of 79 winning, P's
//!   table of base values times the factor (`common/cego_twos.rs`); the special games the Gasthaus's.
//! - The Bräunlingen tournament (P "Bräunlingen Tournament Version"): a normal game's difference from
//!   35 rounded up to a multiple of 5 before the factor (the Gasthaus's factors), the Bürgermeister's
//!   35 losing the Gasthaus's 5; Ultimo 80, Piccolo 40, Bettel 40, Räuber 30. The Solo bidder says
//!   nothing after his Solo, and the second phase after it begins with Vorhand, or with the player
//!   after him if he bid the Solo.

use super::cego::Card;

/// Whose scores a record follows: the Gasthaus zum Löwen's (cego, cego-pagat, cego-3), or a local
/// version's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Local {
    Gasthaus,
    Ministranten,
    Oberwolfach,
    Oberwolfach4,
    /// The Schmidt leaflet, with the record's choices: other cards standing in for empty ones
    /// (`leere_ersatz`), the cards kept led (`leere_lead`), a Solo's factor 2 won (`solo_factor`).
    Schmidt {
        ersatz: bool,
        lead: bool,
        solo_won_2: bool,
    },
    Ichenheim,
    Twos,
    Braeunlingen,
}

impl Local {
    pub fn of(ruleset: &str) -> Local {
        match ruleset {
            "cego-ministranten" | "cego-ministranten-3" => Local::Ministranten,
            "cego-oberwolfach" => Local::Oberwolfach,
            "cego-oberwolfach-4" => Local::Oberwolfach4,
            "cego-schmidt" => Local::Schmidt { ersatz: false, lead: false, solo_won_2: false },
            "cego-ichenheim" => Local::Ichenheim,
            "cego-twos" => Local::Twos,
            "cego-braeunlingen" => Local::Braeunlingen,
            _ => Local::Gasthaus,
        }
    }

    /// Whose scores a record follows, with the choices of its options where they matter (the
    /// Schmidt leaflet's variations).
    pub fn of_record(rec: &tarot_engine::GameRecord) -> Local {
        let yes = |k: &str, v: &str| rec.options.get(k).and_then(|x| x.as_str()) == Some(v);
        match Local::of(&rec.ruleset) {
            Local::Schmidt { .. } => Local::Schmidt { ersatz: yes("leere_ersatz", "yes"), lead: yes("leere_lead", "yes"), solo_won_2: yes("solo_factor", "won-2") },
            local => local,
        }
    }

    /// Oberwolfach's, at three or at four, and the Schmidt leaflet's, which follows it.
    pub fn oberwolfach(self) -> bool {
        matches!(self, Local::Oberwolfach | Local::Oberwolfach4 | Local::Schmidt { .. })
    }

    /// The choice of `geiss_frei` a record that names none plays.
    pub fn geiss_frei_default(self) -> &'static str {
        if self.oberwolfach() && !matches!(self, Local::Schmidt { .. }) {
            "last-trick"
        } else {
            "no"
        }
    }

    /// The declarer's points that win a normal game: more than half of the pack's 70, or of its 79
    /// counted in twos.
    pub fn target(self) -> i64 {
        if self == Local::Twos {
            40
        } else {
            36
        }
    }

    /// Whether the cards kept in the Leere games must be empty cards (Brettli), a player without them
    /// not bidding the game: every local version but the count in twos and the tournament's, which
    /// keep cego's games (P: "must really be empty cards", "must really be empty", "have to be
    /// Brettli").
    pub fn brettli_only(self) -> bool {
        !matches!(self, Local::Gasthaus | Local::Twos | Local::Braeunlingen | Local::Schmidt { ersatz: true, .. })
    }

    /// Whether the Solo bidder is out of the second phase, which then begins with Vorhand (or the
    /// player after him, if he bid the Solo) and goes round the others (the tournament's: "you cannot
    /// bid against your own Solo").
    pub fn solo_bidder_out(self) -> bool {
        self == Local::Braeunlingen
    }

    /// Whether the Zwei games' cards kept begin the first two tricks together (P "The Play"): not at
    /// Oberwolfach, where "the bidder can lead any card", nor by the Schmidt leaflet but as its
    /// variation.
    pub fn kept_cards_led_together(self) -> bool {
        !self.oberwolfach() || matches!(self, Local::Schmidt { lead: true, .. })
    }

    /// The three cards taken out of the pack for three (P "Three Player Game": the clubs 7, the spades 7
    /// and the diamonds 4; the Ministranten's, P "Three Player Version": the hearts 4, the diamonds 4
    /// and the spades 7, "leaving clubs rather than hearts as the long suit").
    pub fn taken_out_at_three(self) -> [Card; 3] {
        if self == Local::Ministranten {
            [Card::Suited('H', 4), Card::Suited('D', 4), Card::Suited('S', 7)]
        } else {
            [Card::Suited('C', 7), Card::Suited('S', 7), Card::Suited('D', 4)]
        }
    }

    /// Whether a revoke and a discard of the wrong number of cards end the deal, the offender paying
    /// 70 to each other player (the Ministranten, P "Penalties").
    pub fn penalties(self) -> bool {
        self == Local::Ministranten
    }

    /// Whether the bidder leads the trick after those of the empty cards he kept in a Leere game,
    /// which they never take (the Ministranten, P "The Play": "it is the bidder who leads").
    pub fn bidder_leads_after_kept(self) -> bool {
        self == Local::Ministranten
    }

    /// A special game's value, won from or paid to each defender.
    pub fn special(self, contract: &str, piccolo: Option<i64>) -> i64 {
        match (self, contract) {
            (Local::Ministranten, "ulti") => 70,
            (Local::Ministranten, "piccolo") => piccolo.unwrap_or(40),
            (Local::Ministranten, "bettel") => 50,
            (Local::Oberwolfach4, "piccolo") => 10,
            (Local::Oberwolfach4, "bettel") => 15,
            (Local::Ichenheim, "ulti") => 20,
            (Local::Ichenheim, "solodu") => 64,
            (Local::Braeunlingen, "piccolo" | "bettel") => 40,
            (_, "ulti") => 80,
            _ => 30,
        }
    }

    /// What the loser of a Räuber with `points` card points pays each other player.
    pub fn rauber_pay(self, vorhand: bool, points: i64) -> i64 {
        match (self, vorhand) {
            (Local::Ministranten, true) => 60.max(2 * nearest5(points)),
            (Local::Ministranten, false) if points > 30 => nearest5(points),
            (Local::Oberwolfach4, true) => 10,
            (Local::Oberwolfach4, false) => 5,
            (_, true) => 60,
            _ => 30,
        }
    }

    /// A Solo hand (P "Three Player Game"; at four, P "Oberwolfach Version"): nine trumps or more, or
    /// eight of which two are above the 17, the other cards of at most two suits; at Oberwolfach's four,
    /// one trump fewer each.
    pub fn solo_hand(self, trumps: usize, high: usize, suits: usize) -> bool {
        let least = if self == Local::Oberwolfach4 { 8 } else { 9 };
        trumps >= least || (trumps == least - 1 && high >= 2 && suits <= 2)
    }

    /// The claim of a skinned Solo: what each payer pays each other player, the game bid lost without
    /// a trick.
    pub fn claim(self, factor: i64) -> i64 {
        if self.oberwolfach() {
            8 * factor
        } else {
            35 * factor
        }
    }

    /// A normal game's value to the declarer from each defender in a local version (`None`: the
    /// Gasthaus's, which `cego::game_value` gives).
    pub fn game_value(self, contract: &str, factor: i64, over_solo: bool, points: i64) -> Option<i64> {
        let made = points >= 36;
        let diff = (points - 35).abs();
        let value = match self {
            Local::Gasthaus | Local::Ichenheim => return None,
            Local::Twos => return Some(super::cego_twos::game_value(contract, over_solo, points)),
            // The Bürgermeister loses 5, as at the Gasthaus; else the difference rounded up to a
            // multiple of 5, then times the factor.
            Local::Braeunlingen if diff == 0 => return Some(-5),
            Local::Braeunlingen => (diff + 4) / 5 * 5 * super::cego::game_factor(contract, made, over_solo),
            Local::Ministranten => {
                let f = match contract {
                    "solo" if !made => 1,
                    "gegensolo" if made => 4,
                    "gegensolo" => 2,
                    _ => factor,
                };
                5.max(nearest5(diff * f))
            }
            Local::Oberwolfach | Local::Oberwolfach4 | Local::Schmidt { .. } => {
                let won_2 = matches!(self, Local::Schmidt { solo_won_2: true, .. });
                let f = match contract {
                    "solo" if made == won_2 => 2,
                    "solo" => 1,
                    _ => factor + i64::from(over_solo),
                };
                (diff / 5 + 1) * f
            }
        };
        Some(if made { value } else { -value })
    }
}

/// Rounded to the nearest multiple of 5 (no whole number lies halfway).
fn nearest5(x: i64) -> i64 {
    (x + 2) / 5 * 5
}

/// The first card of a Geregelter Räuber's first three tricks that P's rule forbids, said (none: every
/// card lawful). `dealt`, each seat's hand as dealt; `tricks`, the tricks in order, each card with its
/// seat.
pub fn geregelt_breach(dealt: &[Vec<Card>], tricks: &[Vec<(usize, Card)>]) -> Option<String> {
    // The Gstieß, the 21 and the kleiner Mann, owed to the first, second and third tricks.
    let owed = [Card::Trump(22), Card::Trump(21), Card::Trump(1)];
    let mut held: Vec<Vec<Card>> = dealt.to_vec();
    for (k, trick) in tricks.iter().take(3).enumerate() {
        let later = &owed[k + 1..];
        for &(p, c) in trick {
            let hand = &held[p];
            let trumps: Vec<Card> = hand.iter().copied().filter(|x| matches!(x, Card::Trump(_)) && !later.contains(x)).collect();
            let brettli: Vec<Card> = hand.iter().copied().filter(|x| matches!(x, Card::Suited(_, r) if *r <= 10)).collect();
            let (lawful, due) = if hand.contains(&owed[k]) {
                (c == owed[k], "the card owed to it")
            } else if !trumps.is_empty() {
                (trumps.contains(&c), "a trump not owed later")
            } else if !brettli.is_empty() {
                (brettli.contains(&c), "Brettli")
            } else {
                (!later.contains(&c), "a card not owed later")
            };
            if !lawful {
                return Some(format!("trick {}: seat {p} plays {c:?} where {due} is due", k + 1));
            }
            held[p].retain(|&x| x != c);
        }
    }
    None
}

/// A deal as the Ministranten's penalties read it (P "Penalties"): the hands dealt (by seat), the
/// Blinde, the declarer, the cards he laid away (all his discards) and whether he took the Blinde (he
/// laid away), the cards played in order with their seats, whether the first two tricks are begun
/// together (the Zwei games: each player's two cards in a row, the first to the first trick), the
/// cards the declarer kept in a Leere game (they take no trick, and, led, set no suit: the next card
/// does), and whether the first three tricks are a Geregelter Räuber's (trumps owed, not followed).
pub struct Deal<'a> {
    pub dealt: &'a [Vec<Card>],
    pub blinde: &'a [Card],
    pub declarer: Option<usize>,
    pub legage: &'a [Card],
    pub took_blinde: bool,
    pub plays: &'a [(usize, Card)],
    pub together: bool,
    pub kept: &'a [Card],
    pub geregelt: bool,
}

impl Deal<'_> {
    /// The penalty that ended the deal, and its offender: a Legage of another number of cards than
    /// the Blinde he took (he must lay away as many as he took up: P's "you forget to discard a
    /// further card"), or a card that revokes.
    pub fn penalty(&self) -> Option<(usize, &'static str)> {
        if let Some(d) = self.declarer.filter(|_| self.took_blinde && self.legage.len() != self.blinde.len()) {
            return Some((d, "an incorrect discard"));
        }
        self.walk(|_| true, false).map(|(j, _)| (self.plays[j].0, "a revoke"))
    }

    /// The first play (its index among the plays) at which a player that `who` picks held a card that
    /// revokes, and that card.
    pub fn first_revoke(&self, who: impl Fn(usize) -> bool) -> Option<(usize, Card)> {
        self.walk(who, true)
    }

    /// The plays with each player's hand as it stands: the first that revokes (`any`: at which its
    /// player, one `who` picks, held a card that would), with the card.
    fn walk(&self, who: impl Fn(usize) -> bool, any: bool) -> Option<(usize, Card)> {
        let n = self.dealt.len();
        let mut held = self.dealt.to_vec();
        if let Some(d) = self.declarer.filter(|_| self.took_blinde) {
            held[d].extend(self.blinde.iter().copied());
            held[d].retain(|c| !self.legage.contains(c));
        }
        let powerless = |p: usize, c: Card| Some(p) == self.declarer && self.kept.contains(&c);
        let start = if self.together { 2 * n } else { 0 };
        for (j, &(p, c)) in self.plays.iter().enumerate() {
            // The cards already in the trick it goes to, and the trick's number.
            let (before, trick): (Vec<(usize, Card)>, usize) = if j < start {
                (self.plays[..j].iter().enumerate().filter(|(k, _)| k % 2 == j % 2).map(|(_, &x)| x).collect(), j % 2)
            } else {
                let first = start + (j - start) / n * n;
                (self.plays[first..j].to_vec(), (start / n) + (j - start) / n)
            };
            let led = before.iter().find(|&&(q, x)| !powerless(q, x)).map(|&(_, x)| x);
            if let (Some(led), false, true) = (led, self.geregelt && trick < 3, who(p)) {
                if any {
                    if let Some(&bad) = held[p].iter().find(|&&x| revokes(&held[p], led, x)) {
                        return Some((j, bad));
                    }
                } else if revokes(&held[p], led, c) {
                    return Some((j, c));
                }
            }
            held[p].retain(|&x| x != c);
        }
        None
    }
}

/// Whether a card revokes (P "Penalties": "failing to follow suit, or failing to play a Trock when you
/// have no card of the suit led"): played from `hand` to a trick whose suit is `led`'s (the trumps a
/// suit too), it is not of that suit where the hand holds one, or, holding none, is no trump where the
/// hand holds one.
pub fn revokes(hand: &[Card], led: Card, c: Card) -> bool {
    let trump = |x: &Card| matches!(x, Card::Trump(_));
    let of_led = |x: &Card| if trump(&led) { trump(x) } else { !trump(x) && x.suit() == led.suit() };
    if hand.iter().any(of_led) {
        !of_led(&c)
    } else {
        hand.iter().any(trump) && !trump(&c)
    }
}

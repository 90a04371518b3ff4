//! The obligations of the play, walked in one place: the cards a player may play (`legal`, which
//! `next` and the simulator read) and, for a card he may not, the obligation that binds and why
//! (`illegal`). Each step of the walk narrows the cards allowed so far, in the order of a trick:
//! the lead's restrictions (the called suit, the Fool), `must follow`, `must trump`, `must
//! overtrump`, `must beat` (set aside where a `must play ... instead` binds: its cards take their
//! place); the cards that must be led or played (`must lead|play`); then the cards held back (the
//! Fool's deadline, `keep` and `last-trump`, the cards a declaration keeps). A card refused is
//! refused by the first step that took it out. A trump obligation that only cards the
//! rules let a player withhold (`withhold`) would meet binds nothing, and the walk says which cards
//! it spared: playing another card withholds them (`play.rs`). Cards played as the Excuse (`excuse`)
//! and the untouchable card are bound by no obligation of the trick.

use crate::cards::{Card, CardSet, FOOL};

use super::{Game, Stop};

/// The obligation that took a card out of those allowed, with what its message needs.
#[derive(Clone, Copy, Debug)]
enum Bind {
    /// The first lead may not be in the called suit.
    CalledSuit,
    /// The Fool may not be led while other cards are held.
    FoolLed,
    /// `must follow`: `same`, the cards of the suit led held.
    Follow { lane: u8, same: CardSet },
    /// `must trump`: `trumps`, the trumps held.
    Trump { lane: u8, trumps: CardSet },
    /// `must overtrump`: `beats`, the trumps held above `top`.
    Overtrump { beats: CardSet, top: Card },
    /// `must beat`: `beats`, the cards allowed that would take the trick from `best`.
    Beat { beats: CardSet, best: Card },
    /// `fool { deadline }`: only the Fool now.
    FoolDeadline,
    /// `must lead|play` (`Play::forced[i]`): `forced`, the cards of it (fixed, or its formula's at
    /// this turn) held and allowed.
    Forced { i: usize, forced: CardSet },
    /// `keep` or `last-trump` (`Play::keeps[i]`): the card kept back while `others` are held.
    Keep { i: usize, others: CardSet },
    /// A declaration keeps the card to the last trick.
    Kept,
}

/// The walk so far: the cards allowed, and the first step that took out the card asked about.
pub(super) struct Walk {
    pub(super) allowed: CardSet,
    asked: Option<Card>,
    bind: Option<Bind>,
    /// The trumps a trump obligation asked of the player that the rules let him withhold
    /// (`withhold`), his only trumps: the obligation does not bind, and another card withholds them.
    pub(super) spared: CardSet,
}

impl Walk {
    /// The step `bind` narrows the cards allowed to `to`.
    fn narrow(&mut self, to: CardSet, bind: Bind) {
        if self.bind.is_none() && self.asked.is_some_and(|c| self.allowed.contains(c) && !to.contains(c)) {
            self.bind = Some(bind);
        }
        self.allowed = to;
    }
}

impl<'s, 'r> Game<'s, 'r> {
    /// The cards `p` may play now.
    pub fn legal(&self, p: u8) -> CardSet {
        self.walk(p, None).allowed
    }

    /// Why `c`, which `p` holds, is not among his legal cards: the obligation that binds, cited.
    pub(super) fn illegal(&self, p: u8, c: Card) -> Stop {
        let walk = self.walk(p, Some(c));
        match walk.bind {
            Some(b) => self.refusal(p, c, b, walk.allowed),
            None => self.violation(&self.rules().play.order_clause, p, format!("{} may not play {} here", self.name(p), self.rules().card_name(c))),
        }
    }

    /// The walk of the obligations for `p`'s next card; `asked`, a card whose binding obligation is
    /// wanted.
    pub(super) fn walk(&self, p: u8, asked: Option<Card>) -> Walk {
        let hand = self.hands[p as usize];
        let mut w = Walk { allowed: hand, asked, bind: None, spared: CardSet::EMPTY };
        self.trick_obligations(p, &mut w, self.instead_binds(p));
        let play = &self.rules().play;
        // Cards that must be led or played, when held and allowed.
        for (i, f) in play.forced.iter().enumerate() {
            if f.lead && !self.current.is_empty() {
                continue;
            }
            let forced = w.allowed.and(self.forced_cards(&f.cards, p).unwrap_or(CardSet::EMPTY));
            if !forced.is_empty() && forced != w.allowed && self.holds(&f.when, p) == Ok(true) {
                w.narrow(forced, Bind::Forced { i, forced });
            }
        }
        // The Fool's deadline: only the Fool, whatever else holds cards back.
        if let Some(only) = self.fool_deadline_binds(p, w.allowed) {
            w.narrow(only, Bind::FoolDeadline);
            return w;
        }
        // Cards kept back while others are held, unless nothing else is allowed.
        for (i, k) in play.keeps.iter().enumerate() {
            let cards = self.setup.keeps.get(i).copied().unwrap_or(CardSet::EMPTY);
            let others = hand.and(k.among).minus(cards);
            let rest = w.allowed.minus(cards);
            if !others.is_empty() && !rest.is_empty() && rest != w.allowed && self.holds(&k.when, p) == Ok(true) {
                w.narrow(rest, Bind::Keep { i, others });
            }
        }
        let kept = self.keeping(p, w.allowed);
        w.narrow(kept, Bind::Kept);
        w
    }

    /// Whether a `must play ... instead` binds `p` now: its condition holds and he holds one of its
    /// cards, which then take the place of the obligations of the trick begun.
    fn instead_binds(&self, p: u8) -> bool {
        let hand = self.hands[p as usize];
        self.rules().play.forced.iter().any(|f| f.instead && !self.forced_cards(&f.cards, p).unwrap_or(CardSet::EMPTY).and(hand).is_empty() && self.holds(&f.when, p) == Ok(true))
    }

    /// The lead's restrictions, or `must follow`, `must trump`, `must overtrump`, `must beat` on a
    /// trick begun (none where `instead`, a `must play ... instead` binding, sets them aside).
    fn trick_obligations(&self, p: u8, w: &mut Walk, instead: bool) {
        let s = self.setup;
        let hand = self.hands[p as usize];
        let fool = hand.and(CardSet::single(FOOL));
        if self.current.is_empty() {
            if self.tricks.is_empty() && !hand.minus(self.lead_excluded).is_empty() {
                w.narrow(hand.minus(self.lead_excluded), Bind::CalledSuit);
            }
            if s.fool_led_forbidden && w.allowed.len() > 1 {
                w.narrow(w.allowed.minus(fool), Bind::FoolLed);
            }
            return;
        }
        if instead {
            return;
        }
        let Some(lane) = self.led_lane(&self.current) else { return };
        // Always allowed: the Excuse, the untouchable card and the cards played as the Excuse.
        let excuse = if self.rules().fool.excuse.is_some() { fool } else { CardSet::EMPTY };
        let bound = self.bound(p);
        let free = excuse.or(hand.minus(bound));
        let same = bound.and(CardSet::of_lane(lane));
        let trumps = bound.and(CardSet::trumps());
        // A trump asked of him that only cards he may withhold would give: not binding.
        let may_withhold = self.withholdable(p).and(bound);
        let spared = |asked: CardSet| !asked.is_empty() && asked.minus(may_withhold).is_empty();
        let obeyed = if s.follow.is_some() && !same.is_empty() {
            if lane == 4 && spared(same) {
                w.spared = same;
                None
            } else {
                w.narrow(same.or(free), Bind::Follow { lane, same });
                (lane == 4).then_some(same)
            }
        } else if s.trump.is_some() && !trumps.is_empty() {
            if spared(trumps) {
                w.spared = trumps;
                None
            } else {
                w.narrow(trumps.or(free), Bind::Trump { lane, trumps });
                Some(trumps)
            }
        } else {
            None
        };
        // Trumps due: higher than the best on the table, if any is held.
        if let (Some(set), Some(_), Some(top)) = (obeyed, s.overtrump, self.top_trump()) {
            let beats = self.beating(set, top);
            if !beats.is_empty() {
                w.narrow(beats.or(free), Bind::Overtrump { beats, top });
            }
        }
        // Win the trick if one can, with the cards the obligations above leave (not the ones spared).
        if let (Some(_), Some((_, best))) = (s.beat, self.best_of(&self.current, Some(lane))) {
            let beats: CardSet = w.allowed.and(bound).minus(w.spared).iter().filter(|&c| self.takes_over(c, best, Some(lane))).collect();
            if !beats.is_empty() {
                w.narrow(beats.or(free), Bind::Beat { beats, best });
            }
        }
    }

    /// The refusal of `c` by the obligation `b`; `legal`, the cards `p` may play.
    fn refusal(&self, p: u8, c: Card, b: Bind, legal: CardSet) -> Stop {
        let rules = self.rules();
        let who = self.name(p);
        let ladder = |i: Option<usize>| i.map(|i| &rules.play.ladder[i].1).unwrap_or(&rules.play.order_clause);
        let lane_name = |lane: u8| if lane == 4 { "trumps".to_string() } else { rules.pack.suit_names[lane as usize].clone() };
        match b {
            Bind::CalledSuit => {
                if let (Some(call), Some(called)) = (&rules.call, self.called) {
                    let clause = call.opening_lead_excludes.as_ref().map(|(_, c)| c).unwrap_or(&call.clause);
                    return self.violation(
                        clause,
                        p,
                        format!("{who} may not open with {}: the first lead may not be in the called suit, but for {} itself", rules.card_name(c), rules.card_name(called)),
                    );
                }
                self.violation(&rules.fool.clause, p, format!("{who} may not lead {} while holding other cards", rules.card_name(c)))
            }
            Bind::FoolLed => self.violation(&rules.fool.clause, p, format!("{who} may not lead {} while holding other cards", rules.card_name(c))),
            Bind::Follow { lane, same } => self.violation(ladder(self.setup.follow), p, format!("{who} must follow {}: holds {}", lane_name(lane), rules.cards_named(same))),
            Bind::Trump { lane, trumps } => {
                self.violation(ladder(self.setup.trump), p, format!("{who} has no {} and must trump: holds {}", lane_name(lane), rules.cards_named(trumps)))
            }
            Bind::Overtrump { beats, top } => self.violation(
                ladder(self.setup.overtrump),
                p,
                format!(
                    "{who} must overtrump: holds {}, which beat{} {} on the table",
                    rules.cards_named(beats),
                    if beats.len() == 1 { "s" } else { "" },
                    rules.pack.trump_name(top)
                ),
            ),
            Bind::Beat { beats, best } => {
                self.violation(ladder(self.setup.beat), p, format!("{who} must take the trick from {}: holds {}", rules.card_name(best), rules.cards_named(beats)))
            }
            Bind::FoolDeadline => match &rules.fool.deadline {
                Some((_, clause)) => {
                    let n = self.setup.fool_deadline;
                    self.violation(clause, p, format!("{who} must play {} now: it must be played before the last {n} trick{}", rules.pack.fool_name, if n == 1 { "" } else { "s" }))
                }
                None => self.violation(&rules.play.order_clause, p, format!("{who} may not play {} here", rules.card_name(c))),
            },
            Bind::Forced { i, forced } => {
                let f = &rules.play.forced[i];
                let verb = if f.lead { "lead" } else { "play" };
                self.violation(&f.clause, p, format!("{who} must {verb} {}: {}", rules.cards_named(forced), f.label))
            }
            Bind::Keep { i, others } => {
                let k = &rules.play.keeps[i];
                if k.last_trump {
                    self.violation(&k.clause, p, format!("{who} may play {} only as his last trump: holds {}", rules.card_name(c), rules.cards_named(others)))
                } else {
                    self.violation(&k.clause, p, format!("{who} may not play {} while he holds {}: {}", rules.card_name(c), rules.cards_named(others), k.label))
                }
            }
            Bind::Kept => match self.kept_by(p, c) {
                Some(d) => {
                    let clause = d.keeps.as_ref().map_or(&d.clause, |(_, c)| c);
                    self.violation(
                        clause,
                        p,
                        format!(
                            "{who} declared {} and must keep {} until the last trick: holds {}, which may be played instead",
                            crate::label::with_article(&d.label),
                            rules.card_name(c),
                            rules.cards_named(legal)
                        ),
                    )
                }
                None => self.violation(&rules.play.order_clause, p, format!("{who} may not play {} here", rules.card_name(c))),
            },
        }
    }

    /// The cards of `p`'s hand the obligations bind: all but the untouchable card and the cards he
    /// would play as the Excuse (`excuse`), which, played like the Fool, neither have to be played nor
    /// make him hold a trump.
    fn bound(&self, p: u8) -> CardSet {
        let hand = self.hands[p as usize].minus(self.as_excuse(p));
        self.untouchable.filter(|&(q, _)| q == p).map_or(hand, |(_, c)| hand.minus(CardSet::single(c)))
    }

    /// The cards `p` would play as the Excuse now: those of each `excuse` whose condition holds at
    /// his turn, that he holds.
    pub(super) fn as_excuse(&self, p: u8) -> CardSet {
        self.held_by_rules(&self.rules().play.excuses, p)
    }

    /// The cards `p` holds that would take no trick played now: those of each `loses` whose condition
    /// holds at his turn (or that its card formula gives him).
    pub(super) fn losing(&self, p: u8) -> CardSet {
        let hand = self.hands[p as usize];
        let rules = &self.rules().play.loses;
        rules.iter().filter(|l| self.holds(&l.when, p) == Ok(true)).fold(CardSet::EMPTY, |a, l| a.or(self.forced_cards(&l.cards, p).unwrap_or(CardSet::EMPTY).and(hand)))
    }

    /// The cards `p` may withhold from a trump obligation now: those of each `withhold` whose
    /// condition holds at his turn, that he holds.
    fn withholdable(&self, p: u8) -> CardSet {
        self.held_by_rules(&self.rules().play.withholds, p)
    }

    /// The cards of `rules` whose condition holds for `p` at his turn, that he holds.
    fn held_by_rules(&self, rules: &[crate::ir::CardRule], p: u8) -> CardSet {
        let hand = self.hands[p as usize];
        rules.iter().filter(|r| !r.cards.and(hand).is_empty() && self.holds(&r.when, p) == Ok(true)).fold(CardSet::EMPTY, |a, r| a.or(r.cards.and(hand)))
    }

    /// The trump that wins the trick so far, if any (of tied trumps, the first played unless the
    /// later wins). Where trumps do not win unless led (`trumps-win`), none on a suit led.
    fn top_trump(&self) -> Option<Card> {
        if !self.setup.trumps_win && self.led_lane(&self.current) != Some(4) {
            return None;
        }
        self.current.iter().filter(|&&(_, c)| c.is_trump() && !self.takes_no_trick(c)).fold(None, |best, &(_, c)| match best {
            Some(b) if !self.beats(c, b) => Some(b),
            _ => Some(c),
        })
    }

    /// Whether trump `c`, played after trump `b`, beats it: it is stronger, or tied with it where the
    /// later wins.
    pub(super) fn beats(&self, c: Card, b: Card) -> bool {
        let (sc, sb) = (self.strength(c), self.strength(b));
        sc > sb || sc == sb && self.rules().pack.later_wins.contains(c)
    }

    /// The trumps of `set` that beat `top`.
    fn beating(&self, set: CardSet, top: Card) -> CardSet {
        set.and(CardSet::trumps()).iter().filter(|&c| self.beats(c, top)).collect()
    }

    /// Whether the condition of a `must lead|play` or a `keep` holds for `p` at his turn (none: yes).
    pub(super) fn holds(&self, when: &Option<crate::expr::Expr>, p: u8) -> Result<bool, String> {
        match when {
            None => Ok(true),
            Some(e) => crate::expr::eval(e, &self.env(Some(p)).with_hand(self.hands[p as usize])).and_then(|v| crate::expr::truthy(&v)),
        }
    }

    /// The cards of a `must lead|play` for `p` at his turn: fixed ones, or what its card formula
    /// gives (`must lead "label" = cards`).
    fn forced_cards(&self, cards: &crate::expr::Expr, p: u8) -> Result<CardSet, String> {
        match cards {
            crate::expr::Expr::Const(crate::expr::Value::Cards(set)) => Ok(*set),
            e => match crate::expr::eval(e, &self.env(Some(p)).with_hand(self.hands[p as usize]))? {
                crate::expr::Value::Cards(set) => Ok(set),
                v => Err(format!("the rule's cards are {}, not a set of cards", v.type_name())),
            },
        }
    }

    /// The conditions of `must lead|play`, `keep`, `withhold`, `excuse` and `loses`, and the card formulas of
    /// `must lead|play` and `loses`, worked out for `p` before his card: one that cannot be is the rules' error
    /// (the walk takes it as not holding, or as forcing nothing).
    pub(super) fn turn_conditions(&self, p: u8) -> Result<(), Stop> {
        let play = &self.rules().play;
        for (cards, clause) in play.forced.iter().map(|f| (&f.cards, &f.clause)).chain(play.loses.iter().map(|l| (&l.cards, &l.clause))) {
            self.forced_cards(cards, p).map_err(|e| self.rule_error(clause, e))?;
        }
        let conditions = play.forced.iter().map(|f| (&f.when, &f.clause)).chain(play.keeps.iter().map(|k| (&k.when, &k.clause)));
        let conditions = conditions.chain(play.withholds.iter().chain(&play.excuses).map(|r| (&r.when, &r.clause)));
        let conditions = conditions.chain(play.loses.iter().map(|l| (&l.when, &l.clause)));
        for (when, clause) in conditions {
            self.holds(when, p).map_err(|e| self.rule_error(clause, e))?;
        }
        Ok(())
    }
}

//! The rounds of an auction and the bids that end it: `opening-round` (a round before the auction for
//! some contracts, ended by the first bid), `closing` (contracts whose bid ends the auction at once),
//! `out-of-turn` (closing contracts a player may say before his turn) and `step lowest`, checked
//! against the rest of the bidding block.

use super::*;

impl Compiler {
    /// What `opening-round`, `closing`, `out-of-turn` and `step lowest` name, against the block.
    pub(super) fn rounds_checked(&mut self, s: &Stmt, b: &Bidding) {
        let find = |key: &str| s.block.iter().flatten().find(|st| st.key == key);
        // A contract nobody bids (played when all pass, or chosen after the auction) is in no round.
        let unbid = |c: usize| b.all_pass_play == Some(c) || b.instead.iter().any(|i| i.chosen == c);
        for (key, listed) in [("opening-round", &b.opening_round), ("closing", &b.closing), ("out-of-turn", &b.out_of_turn)] {
            let (Some((cs, _)), Some(st)) = (listed, find(key)) else { continue };
            for &c in cs.iter().filter(|&&c| unbid(c)) {
                self.err_at(st, format!("`{key}` names contract `{}`, which nobody bids (it is played when all pass, or chosen once the auction is won)", b.contracts[c].name));
            }
        }
        if let (Some((cs, _)), Some(st)) = (&b.opening_round, find("opening-round")) {
            if b.turns == Turns::Once {
                self.err_at(st, "`opening-round` needs an auction after it in which players speak again (`turns until-one-left` or `turns rounds`)");
            }
            if (0..b.contracts.len()).all(|c| cs.contains(&c) || unbid(c)) {
                self.err_at(st, "`opening-round` names every contract that is bid: the auction after it would have none left");
            }
            if let Some((steps, _)) = b.step.as_ref().filter(|(steps, _)| steps.iter().any(|c| cs.contains(c))) {
                let both: Vec<&str> = steps.iter().filter(|c| cs.contains(c)).map(|&c| b.contracts[c].name.as_str()).collect();
                self.err_at(st, format!("`opening-round` and `step` both name {}: a contract of the opening round is bid there alone, never as a step", both.join(", ")));
            }
        }
        if let (None, Some(st)) = (&b.opening_round, find("opening-bidder")) {
            self.err_at(st, "`opening-bidder out` needs an opening round (`opening-round CONTRACT ...`): it is that round's bidder who is out of the auction after it");
        }
        if let (Some((cs, _)), Some(st)) = (&b.out_of_turn, find("out-of-turn")) {
            let closing = b.closing.as_ref().map(|(c, _)| c.as_slice()).unwrap_or_default();
            for &c in cs.iter().filter(|c| !closing.contains(c)) {
                self.err_at(
                    st,
                    format!(
                        "`out-of-turn` names contract `{}`, which is not `closing`: a bid out of turn must end the auction, or the turns after it would be nobody's",
                        b.contracts[c].name
                    ),
                );
            }
        }
        if b.step_lowest && b.hold.is_none() {
            if let Some(st) = find("step") {
                self.err_at(st, "`step lowest` binds a player who may hold the contract held, and this bidding has no `hold`: write `step` alone");
            }
        }
    }
}

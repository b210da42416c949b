// A user invariant about money: the platform's cut of a bounty pot never exceeds 12%, and the pot is
// paid out whole (fee + white + black = pot). The fee itself comes from the ruleset the run uses.
const MAX_FEE_SHARE = 0.12;

export default {
  name: 'bounty_fee_cap',
  description: 'a bounty pot pays out whole and its fee is at most 12% of it',
  create({ ruleset }) {
    const configured = ruleset.bounty.systemFeeBps / 10_000;
    return {
      check(event, expect) {
        if (event.type !== 'bounty_settled') return;
        expect(
          event.fee <= event.pot * MAX_FEE_SHARE,
          `game ${event.gameId}: fee ${event.fee} is more than 12% of the pot ${event.pot} (the ruleset says ${configured * 100}%)`,
        );
        expect(
          event.fee + event.white + event.black === event.pot,
          `game ${event.gameId}: ${event.fee} + ${event.white} + ${event.black} != pot ${event.pot}`,
        );
      },
    };
  },
};

// Spec reporter plus the last line CI counts: "N passed, N failed, N skipped".
const Mocha = require('mocha');
const { Spec } = Mocha.reporters;
const { EVENT_RUN_END } = Mocha.Runner.constants;

class SpecWithSummary extends Spec {
  constructor(runner, options) {
    super(runner, options);
    // Synchronous on purpose: with "exit": true a deferred print would be cut off.
    runner.once(EVENT_RUN_END, () => {
      const stats = runner.stats || {};
      console.log(`${stats.passes || 0} passed, ${stats.failures || 0} failed, ${stats.pending || 0} skipped`);
    });
  }
}
module.exports = SpecWithSummary;

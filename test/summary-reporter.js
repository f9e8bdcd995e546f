/**
 * Prints the plain closing line that CI reads ("tests: N passed, N failed, N skipped"), which
 * jest's own summary ("Tests: N passed, N total") does not match. Written at exit so that it is
 * the last line, after jest's summary.
 */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const line = `tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped\n`;
    process.once("exit", () => process.stderr.write(line));
  }
}
module.exports = SummaryReporter;

/**
 * At exit, so that it comes after jest's own summary: the slowest test files with their seconds
 * (where a run's time goes, read from a CI log), then one plain closing line ("jest: N passed,
 * N failed, N skipped") that CI reads, last.
 */
const path = require('node:path');

const SLOWEST = 10;

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const slowest = results.testResults
      .map((file) => ({
        seconds: (file.perfStats.end - file.perfStats.start) / 1000,
        name: path.relative(process.cwd(), file.testFilePath),
      }))
      .filter((file) => Number.isFinite(file.seconds) && file.seconds > 0)
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, SLOWEST);
    const lines = slowest.length
      ? [`Slowest test files:`]
          .concat(slowest.map((file) => `${file.seconds.toFixed(1).padStart(7)} s  ${file.name}`))
          .join('\n') + '\n'
      : '';
    const line = `jest: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${results.numPendingTests} skipped\n`;
    process.once('exit', () => process.stdout.write(lines + line));
  }
}

module.exports = SummaryReporter;

const { default: TestSequencer } = require("@jest/test-sequencer");

/** The projects whose files are stories on whole stacks: each runs from twenty seconds to a few minutes. */
const STORY_PROJECTS = new Set(["e2e", "stories on shared stacks"]);

/**
 * Longest first, so that no worker is left with a long story once the others have run out of work.
 * jest's own order uses the durations it recorded in an earlier run; a fresh clone (CI's) has none, and
 * jest's fallback, the larger file first, started a two-minute story in the last minutes of the run. So
 * a test that jest has no duration for counts as a story if its project is one, then by its file's size.
 */
class StoriesFirstSequencer extends TestSequencer {
  sort(tests) {
    const timed = tests.filter((test) => this.time(test) != null);
    if (timed.length === tests.length) return super.sort(tests);
    const isStory = (test) => STORY_PROJECTS.has(test.context.config.displayName?.name);
    const size = (test) => test.context.hasteFS.getSize(test.path) ?? 0;
    const sorted = super.sort(tests);
    const untimed = sorted.filter((test) => this.time(test) == null).sort((a, b) => Number(isStory(b)) - Number(isStory(a)) || size(b) - size(a));
    return [...untimed, ...sorted.filter((test) => this.time(test) != null)];
  }
}

module.exports = StoriesFirstSequencer;

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
    // jest's order: it notes each test's duration, and puts those without one first, the larger file first.
    const sorted = super.sort(tests);
    const untimed = sorted.filter((test) => test.duration == null);
    if (untimed.length === 0) return sorted;
    const isStory = (test) => STORY_PROJECTS.has(test.context.config.displayName?.name);
    return [...untimed.filter(isStory), ...untimed.filter((test) => !isStory(test)), ...sorted.filter((test) => test.duration != null)];
  }
}

module.exports = StoriesFirstSequencer;

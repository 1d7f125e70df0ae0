// Jest's own order (the slowest first, by the durations it cached in earlier runs), but the groups of a full run
// (test/groups) always first: they are the long files, and a fresh clone has no cached durations to say so — a group
// started last would run alone after everything else.
const Sequencer = require('@jest/test-sequencer').default;

const isGroup = (test) => /[\\/]test[\\/]groups[\\/]/.test(test.path);

class GroupsFirst extends Sequencer {
  async sort(tests) {
    const sorted = await super.sort(tests);
    return [...sorted.filter(isGroup), ...sorted.filter((test) => !isGroup(test))];
  }
}

module.exports = GroupsFirst;

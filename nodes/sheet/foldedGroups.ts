/**
 * The groups users fill least (an insured's address, documents usually attached later with the
 * Document node, insurer groups for multi-line policies). From version 2 they are entries of
 * Additional Fields (Update Fields on Update) instead of empty sections on the panel; workflows
 * saved with version 1 keep them where they were (input.ts here and the operations'
 * sheetSettings.ts read both places). Kept in the stage, which the node's panel reads.
 */
export const FOLDED_GROUPS = ['insuredAddress', 'documents', 'insurerGroups'];

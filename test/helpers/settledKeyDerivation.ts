/**
 * Jest setup: every suite runs as if this release's key derivation had taken over more than 24
 * hours ago (no look for rows filed under keys an earlier release derived). The suites that test
 * that look set `keyDerivationChange.loadedAt` themselves.
 */
import { keyDerivationChange } from '../../nodes/SurplusLinesInvoice/filing/idempotency';

keyDerivationChange.loadedAt = Number.NEGATIVE_INFINITY;

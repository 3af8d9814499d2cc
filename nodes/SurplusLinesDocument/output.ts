// The document shape of every output lives with the invoice's, in the shared module.
export { documentJson, withoutLink } from '../shared/links';

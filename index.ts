// For anyone embedding the classes directly; n8n itself loads them through package.json `n8n`.
export { SurplusLinesApi } from './credentials/SurplusLinesApi.credentials';
export { SurplusLinesCalculator } from './nodes/SurplusLinesCalculator/SurplusLinesCalculator.node';
export { SurplusLinesDocument } from './nodes/SurplusLinesDocument/SurplusLinesDocument.node';
export { SurplusLinesInvoice } from './nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
export { SurplusLinesReference } from './nodes/SurplusLinesReference/SurplusLinesReference.node';
export { SurplusLinesTrigger } from './nodes/SurplusLinesTrigger/SurplusLinesTrigger.node';

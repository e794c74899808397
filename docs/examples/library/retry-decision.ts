// docs/examples/library/retry-decision.ts: may a client re-issue a call whose answer was lost? (idemscan/retry loads no scanner)
import { retryDecision, withRetryKey } from 'idemscan/retry';

// A tool as tools/list gave it, and the server's capabilities as it sent them.
const tool = { name: 'create_order', inputSchema: { type: 'object', properties: { idempotency_key: { type: 'string' } } } };
const decision = retryDecision(tool, { capabilities: { tools: {} } });
// Make the key before the first attempt and send the same params on the re-issue.
const params = withRetryKey({ name: tool.name, arguments: { item: 'book' } }, decision, crypto.randomUUID());
console.log(decision.decision, decision.reason, JSON.stringify(params));
// with-key retry with the same key argument (a strong key-shaped argument) {"name":"create_order","arguments":{"item":"book","idempotency_key":"..."}}

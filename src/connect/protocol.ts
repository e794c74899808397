/** The SDK's protocol constants (client 2.4.0), copied so a stdio scan never loads it: docs/INTERNALS.md. */
// test/unit/options.test.ts fails when an SDK upgrade changes any of them.

export const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';
export const CLIENT_INFO_META_KEY = 'io.modelcontextprotocol/clientInfo';
export const CLIENT_CAPABILITIES_META_KEY = 'io.modelcontextprotocol/clientCapabilities';
export const SERVER_INFO_META_KEY = 'io.modelcontextprotocol/serverInfo';
/** The newest 2025-era (initialize) revision. */
export const LATEST_PROTOCOL_VERSION = '2025-11-25';
/** The first 2026-era revision: dates compare as strings, and every later one is modern too. */
export const FIRST_MODERN_PROTOCOL_VERSION = '2026-07-28';
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];
/** JSON-RPC error codes idemscan reads (the SDK's ProtocolErrorCode). */
export const ProtocolErrorCode = { UnsupportedProtocolVersion: -32022 } as const;
export const METHOD_NOT_FOUND = -32601;

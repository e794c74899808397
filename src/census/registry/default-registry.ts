/** The MCP Registry `registry pull` and `targets refresh` ask when no `--base-url` is given (its --help says so). */
export const DEFAULT_REGISTRY = 'https://registry.modelcontextprotocol.io';

/** How each figure of `idemscan stats` is counted (census-stats.ts), printed with the figures. */
export const STATS_METHOD = [
  "Population: every server is counted by how it was reached, read from its target: a package (npm, PyPI, .mcpb, OCI) or a local command run on stdio, a remote server over Streamable HTTP or SSE, or a saved tool list. A report with more than one population has a group per population and the figures of each apart (top N is taken among the stdio packages, whose downloads are a registry's figure); the group `all` pools them, in stats.json only.",
  'Servers are the scanned-ok servers of the report; a failed or skipped entry adds no tools. "top N" is the N of them with the most monthly npm downloads (the `downloads` of the target list; a server without the figure counts as 0, and a tie goes by name).',
  'Annotated: a tool with at least one of the four behaviour hints given as a boolean (a title alone does not count; "titled" counts a title in the annotations or the tool\'s own). A hint is "given" when the annotations hold it as true or false; "malformed" when they hold it as anything else (a string "true"), which a client reads as the default.',
  "Verdict shares are tools of each verdict over all tools (raw), and, weighted by use, the monthly downloads of the servers with at least one tool of the verdict over the downloads of all the group's servers that have a `downloads` figure (a server counts in every verdict it has, so those shares add up to more than 100%).",
  'tools.idempotency: servers whose capabilities advertise it (the SEP-3182 proposal); protocol-keyed tools are the tools of those servers that are not read-only.',
  'Keyed tools by key name: tools whose verdict is keyed, counted under each strong key argument (an idempotency key or client token in their input schema) they take.',
  'Contradicting hints: the findings of the contradictory-hints rule, a read-only tool that also says destructiveHint: true or idempotentHint: false, by that hint.',
  'By size: servers grouped by how many tools they list (none, 1, 2-5, 6-10, 11-20, 21-50, 51 or more); a server is "all annotated" when each of its tools is.',
];

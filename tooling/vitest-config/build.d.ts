/** Bundle `entry` (TypeScript, the sources' export condition) into `outfile`, an ES module for Node with nothing to resolve; resolves to outfile. */
export declare const buildForNode: (entry: string, outfile: string) => Promise<string>

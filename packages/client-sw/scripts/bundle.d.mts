export declare const ENTRIES: Record<string, string>;
export declare function bundle(options?: { outdir?: string; minify?: boolean }): Promise<Record<string, string>>;

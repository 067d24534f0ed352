/** Files the build writes at the top of the output besides the format's manifest and route table. */
export const REPORT_FILE = 'objpack-report.html';
export const PUSH_MANIFEST_FILE = 'push-manifest.json';
export const NGINX_FILE = 'objpack-nginx.conf';

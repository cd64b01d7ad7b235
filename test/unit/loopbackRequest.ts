// One HTTP request to a server the test started on loopback, its body read whole; 20 s at most.
import { request } from 'node:http';

export function sendRequest(port: number, method: string, path: string, body?: { text: string; contentType: string }): Promise<string> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: body === undefined ? {} : { 'content-type': body.contentType } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => done(text));
    });
    req.setTimeout(20_000, () => req.destroy(new Error(`${path}: no answer in 20 s`)));
    req.on('error', fail);
    req.end(body?.text);
  });
}

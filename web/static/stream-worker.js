"use strict";
// One event stream per browser, shared by all its tabs (a SharedWorker): browsers open
// at most six connections to one host, so a stream per tab left the seventh tab without
// a connection to load its page. The worker keeps one multiplexed stream,
// /api/events?follow=..., naming every game page its tabs show, and passes each
// announcement to the tabs that follow that page.
const ports = new Map();  // port -> Set of API addresses its tab follows
let stream = null;
let following = "";

function wanted() {
  const all = new Set();
  ports.forEach(function (apis) { apis.forEach(function (api) { all.add(api); }); });
  return Array.from(all).sort();
}

function reopen() {
  const apis = wanted();
  const key = apis.join(",");
  if (key === following && stream !== null) { return; }
  if (stream !== null) { stream.close(); stream = null; }
  following = key;
  if (apis.length === 0) { return; }
  stream = new EventSource("/api/events?follow=" + encodeURIComponent(key));
  stream.onmessage = function (event) {
    const news = JSON.parse(event.data);
    ports.forEach(function (apis, port) {
      if (apis.has(news.api)) { port.postMessage(news); }
    });
  };
}

self.onconnect = function (event) {
  const port = event.ports[0];
  ports.set(port, new Set());
  port.onmessage = function (message) {
    const apis = ports.get(port);
    if (message.data.follow) { apis.add(message.data.follow); }
    if (message.data.leave) { apis.delete(message.data.leave); }
    reopen();
  };
  port.start();
};

"use strict";
// How a page hears of changes to its game: through the browser's one shared stream
// (stream-worker.js) where SharedWorker exists, else through a stream of its own.
// onVersion(n) is called with the game's version at each change, onGone() once the
// game is deleted.
function followGame(api, onVersion, onGone) {
  function heard(news) {
    if (news.api !== api) { return; }
    if (news.gone) { onGone(); } else { onVersion(news.version); }
  }
  if (typeof SharedWorker === "function") {
    try {
      const worker = new SharedWorker("/static/stream-worker.js", {name: "naqala-events"});
      worker.port.onmessage = function (event) { heard(event.data); };
      worker.port.start();
      worker.port.postMessage({follow: api});
      window.addEventListener("pagehide", function () {
        worker.port.postMessage({leave: api});
      });
      window.addEventListener("pageshow", function (event) {
        if (event.persisted) { worker.port.postMessage({follow: api}); }  // back from the cache
      });
      document.body.dataset.stream = "shared";
      return;
    } catch (error) {
      // a browser that refuses the worker (a private window, a policy) has its own stream
    }
  }
  const own = new EventSource(api + "/events");
  own.onmessage = function (event) { onVersion(Number(event.data)); };
  own.addEventListener("gone", function () { own.close(); onGone(); });
  document.body.dataset.stream = "own";
}

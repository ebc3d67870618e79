// Send one message on a new channel to the page's board and wait for the board's answer (a
// "done" or an "error"; the board's hello and states are not answers). For the browser tests.
(message) => new Promise((done) => {
  const board = location.pathname.split("/")[2];
  const ws = new WebSocket("ws://" + location.host + "/ws/" + board);
  ws.onmessage = (e) => {
    const type = JSON.parse(e.data).type;
    if (type === "done" || type === "error") { ws.close(); done(type); }
  };
  ws.onopen = () => ws.send(JSON.stringify(message));
})


(function () {
  if (!window.EventSource) return;
  var busy = false, again = false;
  var gone = function () { document.getElementById("link-gone").hidden = false; };
  var refresh = function () {
    if (busy) { again = true; return; }
    busy = true;
    fetch(location.pathname + location.search, { cache: "no-store" }).then(function (answer) {
      if (answer.status === 404) { gone(); throw new Error("gone"); }
      // A busy server's page is not the campaign: the page stays as it was and asks again soon.
      if (!answer.ok) { setTimeout(refresh, 1000); throw new Error("" + answer.status); }
      return answer.text();
    }).then(function (text) {
      var fresh = new DOMParser().parseFromString(text, "text/html");
      ["top", "yours", "live"].forEach(function (id) {
        var now = document.getElementById(id), then = fresh.getElementById(id);
        if (now && then) now.replaceWith(then);
      });
      document.body.dataset.head = fresh.body.dataset.head;
      document.body.dataset.updates = String(Number(document.body.dataset.updates || 0) + 1);
      if (window.grimoireCheckServed) window.grimoireCheckServed();
      if (window.grimoireRolls) window.grimoireRolls();
    }).catch(function () {}).then(function () {
      busy = false;
      if (again) { again = false; refresh(); }
    });
  };
  var source = new EventSource("updates");
  source.addEventListener("head", function (e) {
    var head = JSON.parse(e.data);
    if (head.mark !== document.body.dataset.head) refresh();
  });
  source.addEventListener("closed", function () { source.close(); gone(); });
  source.onerror = function () { if (source.readyState === EventSource.CLOSED) gone(); };
})();

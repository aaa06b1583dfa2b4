"""A dev server for tests: files from its folder like http.server, and a WebSocket echo at /echo.

Standard library only. Usage: python3 ws_echo.py PORT
"""
import base64
import hashlib
import http.server
import struct
import sys

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class Handler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        if self.headers.get("Upgrade", "").lower() != "websocket":
            return super().do_GET()
        key = self.headers["Sec-WebSocket-Key"]
        accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
        self.send_response(101)
        self.send_header("Upgrade", "websocket")
        self.send_header("Connection", "Upgrade")
        self.send_header("Sec-WebSocket-Accept", accept)
        self.end_headers()
        self.wfile.flush()
        self.close_connection = True
        while True:
            head = self.rfile.read(2)
            if len(head) < 2:
                return
            opcode = head[0] & 0x0F
            length = head[1] & 0x7F
            if length == 126:
                length = struct.unpack(">H", self.rfile.read(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self.rfile.read(8))[0]
            mask = self.rfile.read(4) if head[1] & 0x80 else b"\0\0\0\0"
            data = bytes(b ^ mask[i % 4] for i, b in enumerate(self.rfile.read(length)))
            if opcode == 8:
                self.frame(8, data[:2])
                return
            if opcode == 9:
                self.frame(10, data)
                continue
            if opcode in (1, 2):
                reply = (("echo: " + data.decode()).encode()) if opcode == 1 else data
                self.frame(opcode, reply)

    def frame(self, opcode, data):
        if len(data) < 126:
            header = struct.pack(">BB", 0x80 | opcode, len(data))
        elif len(data) < 65536:
            header = struct.pack(">BBH", 0x80 | opcode, 126, len(data))
        else:
            header = struct.pack(">BBQ", 0x80 | opcode, 127, len(data))
        self.wfile.write(header + data)
        self.wfile.flush()


http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()

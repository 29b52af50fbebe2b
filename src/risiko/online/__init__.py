"""Online tables outside the server: the engine adapter and the WebSocket client."""

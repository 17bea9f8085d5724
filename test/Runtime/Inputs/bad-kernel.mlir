tt.func @k( {
